/**
 * qs's parser module alone (shared/http/params.ts imports it instead of the package's index,
 * whose CommonJS object also loads the stringifier, which esbuild cannot drop from a bundle).
 * Typed as the package's own `parse`.
 */
declare module 'qs/lib/parse.js' {
  import type { parse } from 'qs';
  const parseQs: typeof parse;
  export default parseQs;
}
