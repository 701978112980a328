import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Stack traces through the bundle's source map, read on the first stack trace formatted rather
 * than at cold start. `NODE_OPTIONS=--enable-source-maps` (what the functions used before) makes
 * Node read, parse and index every bundle's map while the module loads: 7 to 10 ms of each cold
 * start for a trace most invocations never print (docs/benchmarks.md, "Source maps on first
 * use"). Here the map is parsed by Node's own `module.SourceMap` when a stack is first asked for
 * (a logged error, an uncaught one); frames are written as Node writes mapped frames: the source
 * file, line and column, and the original function name where the map names it.
 *
 * Installed only when the calling module has a map beside it (esbuild writes `<file>.map` next to
 * index.mjs and each of its chunks): in the tests and `npm start` the modules run from TypeScript
 * through their own loaders, untouched. Frames of files without a map are left as V8 writes them.
 */
let installed = false;

export function mapStacksThroughBundleMap(moduleUrl: string): boolean {
  if (!moduleUrl.startsWith('file:') || !existsSync(`${fileURLToPath(moduleUrl)}.map`)) return false;
  if (installed) return true;
  installed = true;
  const previous = Error.prepareStackTrace;
  Error.prepareStackTrace = (error, callSites) => {
    try {
      const frames = callSites.map((site, index) => {
        const map = mapBeside(site.getFileName());
        return `    at ${map ? mappedFrame(map, site, callSites[index + 1]) : site.toString()}`;
      });
      return [errorHeader(error), ...frames].join('\n');
    } catch {
      return previous ? previous(error, callSites) : [errorHeader(error), ...callSites.map((site) => `    at ${String(site)}`)].join('\n');
    }
  };
  return true;
}

/** Each bundle file's map (index.mjs and its chunks), read when a frame in it is first shown; null when it has none. */
const maps = new Map<string, SourceMap | null>();

function mapBeside(file: string | undefined | null): SourceMap | null {
  if (!file || !(file.startsWith('file:') || file.startsWith('/')) || file.includes('/node_modules/')) return null;
  let map = maps.get(file);
  if (map === undefined) {
    try {
      const filePath = file.startsWith('file:') ? fileURLToPath(file) : file;
      map = new SourceMap(JSON.parse(readFileSync(`${filePath}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
}

/** `Name: message`, as V8 heads a stack (its own toString when the error overrides it). */
function errorHeader(error: unknown): string {
  try {
    return Error.prototype.toString.call(error);
  } catch {
    return 'Error';
  }
}

/**
 * A repository path from a map's source (`../../../work/repo/shared/x.ts` -> `shared/x.ts`): the
 * map names sources relative to wherever the stack was built, so the path from the top folder on.
 */
export function shownSource(source: string): string {
  const withoutScheme = source.replace(/^file:\/\//, '');
  const match = /(?:^|\/)((?:shared|functions|infra|test|bench|node_modules)\/.*)$/.exec(withoutScheme);
  return match ? match[1]! : withoutScheme.replace(/^(?:\.\.\/)+/, '');
}

/** One frame at its original position: `async name (shared/x.ts:12:5)`, like Node's mapped frames. */
function mappedFrame(map: SourceMap, site: NodeJS.CallSite, caller: NodeJS.CallSite | undefined): string {
  const line = site.getLineNumber();
  const column = site.getColumnNumber();
  if (line === null || column === null) return site.toString();
  const entry = map.findEntry(line - 1, column - 1) as Partial<{ originalSource: string; originalLine: number; originalColumn: number }>;
  if (entry.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return site.toString();
  const location = `${shownSource(entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  // Names the map gives, else a method's (property names survive minifying; function and type names do not).
  const name = originalName(map, site, caller) ?? site.getMethodName() ?? undefined;
  const prefix = site.isAsync() ? 'async ' : site.isConstructor() ? 'new ' : '';
  return name ? `${prefix}${name} (${location})` : `${prefix}${location}`;
}

/** The function's name in the sources: the map's name at its definition, else at the call that entered it (Node's rule). */
function originalName(map: SourceMap, site: NodeJS.CallSite, caller: NodeJS.CallSite | undefined): string | undefined {
  const enclosing = site as NodeJS.CallSite & { getEnclosingLineNumber?: () => number | null; getEnclosingColumnNumber?: () => number | null };
  const definedLine = enclosing.getEnclosingLineNumber?.();
  const definedColumn = enclosing.getEnclosingColumnNumber?.();
  if (definedLine && definedColumn) {
    const { name } = map.findEntry(definedLine - 1, definedColumn - 1) as { name?: string };
    if (name) return name;
  }
  if (caller && caller.getFileName() === site.getFileName()) {
    const callerLine = caller.getLineNumber();
    const callerColumn = caller.getColumnNumber();
    if (callerLine !== null && callerColumn !== null) return (map.findEntry(callerLine - 1, callerColumn - 1) as { name?: string }).name || undefined;
  }
  return undefined;
}
