/**
 * Node's http and https modules, taken as CommonJS module objects rather than ESM imports. Why:
 * for an ESM `import ... from 'node:http'` Node 24 builds the module's namespace, which reads
 * every export, including http's lazy WebSocket / MessageEvent / CloseEvent getters, and those
 * load the bundled undici: about 40 ms of a Lambda function's cold start on this machine (the
 * bundles are ESM), against 4 ms for the module object (bench/bundles.ts, docs/benchmarks.md).
 */
export const http = process.getBuiltinModule('node:http');
export const https = process.getBuiltinModule('node:https');
