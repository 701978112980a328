#!/usr/bin/env node
/**
 * Summarises the file a collect-mode run writes (OPENAPI_CONFORMANCE=collect, docs/testing.md):
 * one line per operation and status with the distinct problems (JSON pointer with array indexes
 * folded to `*`, keyword) and the test files that met them.
 *
 *   node scripts/openapi-mismatches.mjs [reports/openapi-mismatches.jsonl]
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const file = process.argv[2] ?? 'reports/openapi-mismatches.jsonl';
const groups = new Map();
for (const line of readFileSync(file, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const mismatch = JSON.parse(line);
  const key = `${mismatch.operation} ${mismatch.status}`;
  const group = groups.get(key) ?? { count: 0, problems: new Set(), tests: new Set() };
  group.count += 1;
  for (const problem of mismatch.problems) group.problems.add(problem.replace(/^at (\S+) \(.*?\): /, (_all, at) => `at ${at.replace(/\/\d+(?=\/|$)/g, '/*')}: `).replace(/ \{.*?\} \[schema/, ' [schema'));
  if (mismatch.test) group.tests.add(relative(process.cwd(), mismatch.test));
  groups.set(key, group);
}
const operations = new Set([...groups.keys()].map((key) => key.split(' ').slice(0, 2).join(' ')));
console.log(`${groups.size} operation/status pairs, ${operations.size} operations\n`);
for (const [key, group] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
  console.log(`${key}  (${group.count}x; ${[...group.tests].join(', ')})`);
  for (const problem of group.problems) console.log(`    ${problem}`);
}
