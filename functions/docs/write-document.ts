/**
 * Writes the OpenAPI document to the file named on the command line: run by the stack after
 * bundling the docs function (shipped-files.ts), which serves the file instead of building the
 * document from the registry at run time.
 */
import { writeFileSync } from 'node:fs';
import { openApiJson } from './document.js';

const target = process.argv[2];
if (!target) throw new Error('usage: tsx functions/docs/write-document.ts <file>');
writeFileSync(target, openApiJson());
