import { readFileSync, writeFileSync } from 'node:fs';
import { replacementPropertiesOf } from './cfn-spec.js';
import { compareStatefulResources, statefulResourcesOf, type StatefulResourceList } from './stateful-resources.js';
import { synthStages } from './synth-stages.js';

/**
 * `npm run stateful-resources`: compares both stages' stateful resources with
 * infra/stateful-resources.json and prints what would put data at risk (exit 1 if anything).
 * `-- --write` rewrites the file from the stack: only after writing the migration of every change
 * in docs/operations.md ("Upgrades that keep data").
 */
const file = new URL('../stateful-resources.json', import.meta.url);
const current: StatefulResourceList = {};
for (const { stage, parent, nested } of synthStages()) {
  current[stage] = [parent, ...Object.values(nested)].flatMap((template) => statefulResourcesOf(template, (type) => replacementPropertiesOf(type)));
}
if (process.argv.includes('--write')) {
  writeFileSync(file, `${JSON.stringify(current, null, 2)}\n`);
  console.log(`Wrote ${file.pathname}: ${Object.entries(current).map(([stage, list]) => `${stage} ${list.length}`).join(', ')} resources.`);
} else {
  const committed = JSON.parse(readFileSync(file, 'utf8')) as StatefulResourceList;
  const problems = Object.entries(current).flatMap(([stage, list]) => compareStatefulResources(stage, committed[stage] ?? [], list));
  for (const problem of problems) console.log(problem);
  if (problems.length) process.exit(1);
  console.log('Every stateful resource is as pinned in infra/stateful-resources.json.');
}
