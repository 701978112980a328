import { describe, expect, it } from 'vitest';
import { resourceRoutings } from '../../shared/resources/routing.js';
import { resources } from '../../shared/resources/registry.js';
import { viewByName, views } from '../../shared/resources/view-registry.js';

/**
 * The view registry (what admin table exports serialize with) and the full definitions must show
 * a record the same way: each definition takes its view facts from its view, the same objects.
 */
describe('view registry', () => {
  it.each(resources.map((resource) => [resource.name, resource] as const))('%s takes its view facts from its view', (name, resource) => {
    const view = viewByName(name);
    expect(view, name).toBeDefined();
    for (const fact of ['name', 'type', 'columns', 'derive', 'foreignKeys', 'enrich'] as const) expect(resource[fact], fact).toBe(view![fact]);
  });

  it('holds one view per resource and no other', () => {
    expect(views.map((view) => view.name).sort()).toEqual(resources.map((resource) => resource.name).sort());
  });

  it('has a view for every resource whose list answers as CSV (what an export can read)', () => {
    const exportable = resourceRoutings.filter((facts) => facts.csv && facts.operations.includes('list')).map((facts) => facts.name);
    expect(exportable.length).toBeGreaterThan(0);
    for (const name of exportable) expect(viewByName(name), name).toBeDefined();
  });

  it('leaves the enricher to the view: no behaviour carries one', async () => {
    for (const resource of resources) {
      const behaviour = (await resource.behaviour?.()) as Record<string, unknown> | undefined;
      expect(behaviour?.enrich, resource.name).toBeUndefined();
    }
  });
});
