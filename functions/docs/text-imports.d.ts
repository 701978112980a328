/**
 * The renderer's script imported with `{ type: 'text' }` (renderer.ts): esbuild makes it a
 * string. Only that import names this file.
 */
declare module '*/@scalar/api-reference/dist/browser/standalone.js' {
  const text: string;
  export default text;
}
