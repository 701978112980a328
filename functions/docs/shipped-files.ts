/**
 * Files the docs function reads at run time from beside its bundle rather than holding them in
 * the bundle: Scalar's browser script is ~4.4 MB, fifteen times the bundles' 300 KB goal (issue
 * 13), and it is served as bytes, never run by the function. The stack copies each file into the
 * function's asset after bundling (infra/constructs/function-defaults.ts, `shippedFiles`);
 * renderer.ts reads it from there in Lambda and from `source` (where npm put it) elsewhere.
 *
 * No imports: the CDK app and the bundle both read this.
 */
export interface ShippedFile {
  /** Path relative to the repository root. */
  source: string;
  /** File name beside the bundle. */
  name: string;
}

export const scalarScript: ShippedFile = { source: 'node_modules/@scalar/api-reference/dist/browser/standalone.js', name: 'scalar-standalone.js' };

export const docsShippedFiles: readonly ShippedFile[] = [scalarScript];
