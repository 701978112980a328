import { Stack } from 'aws-cdk-lib';
import {
  type HttpApi,
  HttpIntegrationType,
  HttpRouteIntegration,
  type HttpRouteIntegrationConfig,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * A Lambda proxy integration (payload 2.0) that adds no permission of its own.
 * HttpLambdaIntegration adds one `lambda:InvokeFunction` permission per route, over a hundred for
 * this API, each a resource in the template and a statement in a function policy capped at 20 KB;
 * here each function gets one, for the whole API, from `allowApiToInvoke`.
 */
export class LambdaProxyIntegration extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly handler: IFunction,
  ) {
    super(id);
  }

  bind(): HttpRouteIntegrationConfig {
    return { type: HttpIntegrationType.AWS_PROXY, uri: this.handler.functionArn, payloadFormatVersion: PayloadFormatVersion.VERSION_2_0 };
  }
}

/**
 * Lets any route and stage of the API invoke the function: `execute-api:<region>:<account>:<api>/*\/*`
 * (stage, then method and path, or `$default`). The function's routes are the API's business.
 */
export function allowApiToInvoke(fn: IFunction, api: HttpApi): void {
  fn.addPermission('ApiInvoke', {
    principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
    action: 'lambda:InvokeFunction',
    sourceArn: Stack.of(api).formatArn({ service: 'execute-api', resource: api.apiId, resourceName: '*/*' }),
  });
}
