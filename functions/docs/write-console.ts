/**
 * Writes the console's built files and their manifest into the directory named on the command
 * line: run by the stack after bundling the docs function (shipped-files.ts), which then serves
 * these files instead of building them at run time (console-page.ts).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildConsole } from './console-build.js';
import { CONSOLE_MANIFEST } from './shipped-files.js';

const target = process.argv[2];
if (!target) throw new Error('usage: tsx functions/docs/write-console.ts <directory>');
const { script, style } = await buildConsole();
for (const asset of [script, style]) writeFileSync(path.join(target, asset.name), asset.text);
writeFileSync(path.join(target, CONSOLE_MANIFEST), JSON.stringify({ script: script.name, style: style.name }));
