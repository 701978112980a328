import { routeKey, type RouteDefinition } from '../route-definition.js';

/**
 * A unique operationId per route, from the route table's operation name in camel case
 * (`subscriptions.list` → `subscriptionsList`). Several routes share an operation (a list and
 * its `.csv`, ping by GET and by POST, the preflight of ping and of post); those get, in this
 * order until they differ, `Csv`, their method, and the path words the others do not have.
 */
const camel = (words: readonly string[]) =>
  words
    .flatMap((word) => word.split(/[._\s-]+/))
    .filter(Boolean)
    .map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1)))
    .join('');

type Discriminator = (route: RouteDefinition, group: readonly RouteDefinition[]) => string[];

const literalWords = (route: RouteDefinition) => route.path.split('/').filter((segment) => segment && !segment.startsWith('{'));

const DISCRIMINATORS: Discriminator[] = [
  (route) => (route.path.endsWith('.csv') ? ['csv'] : []),
  (route) => [route.method.toLowerCase()],
  (route, group) => literalWords(route).filter((word) => !group.every((other) => literalWords(other).includes(word))),
];

export function operationIds(table: readonly RouteDefinition[]): Map<string, string> {
  let names = new Map(table.map((route) => [routeKey(route), [route.operation]]));
  for (const discriminate of DISCRIMINATORS) {
    const byName = new Map<string, RouteDefinition[]>();
    for (const route of table) {
      const name = camel(names.get(routeKey(route))!);
      byName.set(name, [...(byName.get(name) ?? []), route]);
    }
    const next = new Map(names);
    for (const group of byName.values()) {
      if (group.length < 2) continue;
      const words = group.map((route) => discriminate(route, group));
      // Words every member gets alike tell them no further apart.
      if (words.every((list) => list.join() === words[0]!.join())) continue;
      group.forEach((route, index) => next.set(routeKey(route), [...names.get(routeKey(route))!, ...words[index]!]));
    }
    names = next;
  }
  return new Map([...names].map(([key, words]) => [key, camel(words)]));
}
