import { lazyOperation } from '../http/lazy-operation.js';
import type { Operation } from '../http/request.js';
import type { RouteGroup } from '../http/route-groups.js';
import type { ResourceDefinition } from './define.js';
import type { ResourceRouting } from './routing/resource-routing.js';

/**
 * The CRUD operations of a route group's resources, named from their routing facts (the same
 * facts the group's routes are made from) and loaded on the first CRUD request: the definitions
 * (schemas, views, hooks) and the engine are evaluated then, not at the function's init (issue 12).
 * The loaded definitions must be the routing facts' resources, in any order; a mismatch fails
 * that first request (and the tests, which load every group).
 */
export function lazyGroupOperations(group: RouteGroup, routings: readonly ResourceRouting[], load: () => Promise<readonly ResourceDefinition[]>): Record<string, Operation> {
  let table: Promise<Record<string, Operation>> | undefined;
  const operations = async (): Promise<Record<string, Operation>> => {
    const [resources, engine] = await Promise.all([load(), import('./engine.js')]);
    const expected = routings.map((routing) => routing.name).sort();
    const given = resources.map((resource) => resource.name).sort();
    if (expected.join() !== given.join()) throw new Error(`Route group ${group} loads resources ${given.join(', ')}, its routing facts name ${expected.join(', ')}`);
    return engine.groupOperations(group, resources);
  };
  return Object.fromEntries(
    routings.flatMap((routing) =>
      routing.operations.map((operation) => {
        const name = `${routing.name}.${operation}`;
        return [
          name,
          lazyOperation(async () => {
            table ??= operations().catch((error: unknown) => {
              table = undefined;
              throw error;
            });
            const loaded = (await table)[name];
            if (!loaded) throw new Error(`Route group ${group}: resource ${routing.name} has no operation ${operation}`);
            return loaded;
          }),
        ];
      }),
    ),
  );
}
