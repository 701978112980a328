import { resourceRoutings } from '../resources/routing.js';

// Apart from the exporter's declaration (admin-exports-resource.ts) so that the export run it loads can read it too.
/** Resources an export can read: those whose list answers as CSV (the rows an export repeats). */
export const EXPORTABLE_RESOURCES = resourceRoutings
  .filter((facts) => facts.csv && facts.operations.includes('list'))
  .map((facts) => facts.name) as [string, ...string[]];
