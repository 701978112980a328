import type { ApiEvent, ApiResponse } from '../http/request.js';
import type { RouteGroup } from '../http/route-groups.js';

/**
 * A request API Gateway sent to `$default` although it names a route of the table: a path with a
 * trailing slash (`/api/v1/calls/stats/`, as the hosted service's docs write it), which API
 * Gateway matches against no route because a route's path may not end in "/". The fallback
 * function hands it to the route group's function as the route's own event, so it is served
 * as the local gateway serves it. AWS: a synchronous Lambda invoke; the local gateway serves such
 * paths itself and needs no adapter.
 */
export interface RouteForwardingPort {
  /** The group function's answer to `event` (already the route's event: its route key, path and parameters). */
  forward(group: RouteGroup, event: ApiEvent): Promise<ApiResponse>;
}
