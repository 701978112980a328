import { describe, expect, it } from 'vitest';
import { ROUTES_PER_STACK, TEMPLATE_RESOURCE_BUDGET, assignRouteStacks } from '../../infra/constructs/route-stacks.js';
import { routes } from '../../shared/http/routes.js';
import { synth } from './support.js';
import type { RouteDefinition, RouteGroup } from '../../shared/http/routes.js';

const route = (group: RouteGroup, name: string): RouteDefinition => ({ method: 'GET', path: `/api/v1/${name}`, group, auth: 'basic', operation: `${name}.list`, permission: 'company' });
const paths = (stacks: ReturnType<typeof assignRouteStacks>) => Object.fromEntries(stacks.map((stack) => [stack.name, stack.routes.map((r) => r.path)]));

describe('assignRouteStacks', () => {
  it('puts each group in a stack of its own, named after it, groups in the order the table first names them', () => {
    const stacks = assignRouteStacks([route('offers', 'a'), route('call_logs' as RouteGroup, 'b'), route('offers', 'c')]);
    expect(stacks.map(({ name, group }) => [name, group])).toEqual([
      ['Offers', 'offers'],
      ['CallLogs', 'call_logs'],
    ]);
    expect(paths(stacks)).toEqual({ Offers: ['/api/v1/a', '/api/v1/c'], CallLogs: ['/api/v1/b'] });
  });

  it('splits only a group bigger than a stack, in table order, the later stacks numbered', () => {
    const table = [route('offers', 'o1'), ...['s1', 's2', 's3', 's4', 's5'].map((name) => route('schedules', name))];
    expect(paths(assignRouteStacks(table, 2))).toEqual({
      Offers: ['/api/v1/o1'],
      Schedules: ['/api/v1/s1', '/api/v1/s2'],
      Schedules2: ['/api/v1/s3', '/api/v1/s4'],
      Schedules3: ['/api/v1/s5'],
    });
  });

  it('leaves every placed route where it was when routes are added to other groups or appended to its own', () => {
    const before = assignRouteStacks([route('schedules', 's1'), route('schedules', 's2'), route('schedules', 's3'), route('offers', 'o1')], 2);
    const after = assignRouteStacks(
      [route('buyers', 'b1'), route('schedules', 's1'), route('offers', 'o0'), route('schedules', 's2'), route('schedules', 's3'), route('offers', 'o1'), route('schedules', 's4')],
      2,
    );
    const placement = (stacks: ReturnType<typeof assignRouteStacks>) => new Map(stacks.flatMap((stack) => stack.routes.map((r) => [r.path, stack.name] as const)));
    const was = placement(before);
    const now = placement(after);
    for (const [path, stack] of was) expect(now.get(path), path).toBe(stack);
    expect(now.get('/api/v1/s4')).toBe('Schedules2');
  });

  it(`holds at most ROUTES_PER_STACK (${ROUTES_PER_STACK}) routes a stack by default, under the template budget`, () => {
    expect(ROUTES_PER_STACK).toBeLessThan(TEMPLATE_RESOURCE_BUDGET);
    const big = Array.from({ length: ROUTES_PER_STACK + 1 }, (_, index) => route('schedules', `s${index}`));
    expect(assignRouteStacks(big).map((stack) => [stack.name, stack.routes.length])).toEqual([
      ['Schedules', ROUTES_PER_STACK],
      ['Schedules2', 1],
    ]);
  });

  it('has no stack for an empty table, and refuses a size below one', () => {
    expect(assignRouteStacks([])).toEqual([]);
    expect(() => assignRouteStacks([route('offers', 'a')], 0)).toThrow(/maxRoutes/);
  });
});

describe('nested route stacks', () => {
  it('refuse at synth two routes whose logical ids would collide, naming both', () => {
    const colliding = [...routes, route('configuration', 'zz_widgets'), route('configuration', 'zzwidgets')];
    expect(() => synth({}, 'CallTrackingService', { routes: colliding })).toThrow(/"GET \/api\/v1\/zz_widgets" and "GET \/api\/v1\/zzwidgets" would share the logical id GETapiv1zzwidgets/);
  });
});
