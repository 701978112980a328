import type { LambdaClient } from '@aws-sdk/client-lambda';
import type { ApiEvent, ApiResponse } from '../../http/request.js';
import type { RouteGroup } from '../../http/route-groups.js';
import type { RouteForwardingPort } from '../../ports/route-forwarding.js';

/**
 * Route forwarding in AWS: the route group's function invoked synchronously with the route's
 * event, its answer returned as it is. `functions` names each group's function (the fallback's
 * ROUTE_FUNCTIONS, set by the stack); the Lambda modules are imported on first use, not at init:
 * `client` may be a function making it.
 */
export class LambdaRouteForwarding implements RouteForwardingPort {
  constructor(
    private readonly client: LambdaClient | (() => Promise<LambdaClient>),
    private readonly functions: Readonly<Record<string, string>>,
  ) {}

  async forward(group: RouteGroup, event: ApiEvent): Promise<ApiResponse> {
    const functionName = this.functions[group];
    if (!functionName) throw new Error(`No function is named for route group ${group}`);
    const { InvokeCommand } = await import('@aws-sdk/client-lambda');
    const client = typeof this.client === 'function' ? await this.client() : this.client;
    const result = await client.send(new InvokeCommand({ FunctionName: functionName, Payload: new TextEncoder().encode(JSON.stringify(event)) }));
    // The group's handler answers every error itself; a function error is a crash or a timeout.
    if (result.FunctionError) throw new Error(`The ${group} function failed (${result.FunctionError})`);
    return JSON.parse(new TextDecoder().decode(result.Payload)) as ApiResponse;
  }
}
