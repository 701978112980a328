import type { BuildOptions } from 'esbuild';

/**
 * How every Lambda bundle is built, in one place: infra/constructs/function-defaults.ts passes
 * these to NodejsFunction's `bundling`, and bench/bundles.ts builds the same bundles with esbuild's
 * API through `esbuildOptions` below, so the benchmark measures what is deployed.
 *
 * No CDK imports here (only esbuild's types), so the bench can load it without aws-cdk-lib.
 */
export const lambdaBundling = {
  format: 'esm',
  // Lambda's runtime (function-defaults.ts; test/infra checks they agree). bench:bundles runs the
  // output locally on the same major (the project's `node` devDependency).
  target: 'node24',
  minify: true,
  sourceMap: true,
  // Maps keep line mappings for stack traces but not the sources' text: a fifth of the size.
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // Lets CommonJS dependencies call require() inside the ESM bundle.
  banner: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  // The AWS SDK v3 is taken from the Lambda runtime (every Node.js runtime ships it whole), not
  // bundled: it is half of each bundle, and the bundles' goal (issue 13: 300 KB, 50 ms init) is
  // out of reach with it inside. The cost: the deployed SDK version is the runtime's, which AWS
  // updates with the runtime (docs/operations.md, "Lambda bundles").
  // The Powertools Tracer (with aws-xray-sdk-core, ~115 KB) comes from Powertools' published
  // layer (`powertoolsLayer` below; docs/decisions.md: bundled, voice would be 480 KB).
  externalModules: ['@aws-sdk/*', '@smithy/*', '@aws-lambda-powertools/tracer'],
} as const satisfies {
  format: 'esm' | 'cjs';
  target: string;
  minify: boolean;
  sourceMap: boolean;
  sourcesContent: boolean;
  mainFields: readonly string[];
  banner: string;
  externalModules: readonly string[];
};

/**
 * The ceiling of every bundle (`index.mjs`, minified, the AWS SDK external): 400 KB since issue 32,
 * which raised it (was 300) so that maintained libraries can replace code of our own; the cold-start
 * goal (init within 1.3x the DynamoDB-client-only baseline) is unchanged. bench:bundles
 * prints each bundle against it and test/infra/bundle-sizes.test.ts holds every bundle to it, or
 * to a recorded ceiling for those not yet within it (docs/benchmarks.md, "Lambda bundles").
 */
export const BUNDLE_GOAL_KB = 400;

/**
 * Powertools' published Lambda layer, which provides `@aws-lambda-powertools/tracer` (external
 * above) to every function: the release it carries, pinned here and nowhere else (a test holds it
 * equal to the installed package, which the tests and `npm start` use). Powertools publishes each
 * release's layer ARN, `arn:aws:lambda:{region}:094274105915:layer:AWSLambdaPowertoolsTypeScriptV2:{n}`,
 * in the public SSM parameter below; the stack resolves it at deploy time (function-defaults.ts).
 */
export const powertoolsLayer = {
  release: '2.35.0',
  ssmParameter: (release: string) => `/aws/service/powertools/typescript/generic/all/${release}`,
  arnPattern: 'arn:aws:lambda:{region}:094274105915:layer:AWSLambdaPowertoolsTypeScriptV2:{version}',
} as const;

/**
 * No NODE_OPTIONS: `--enable-source-maps` made Node read and index each bundle's map at cold start
 * (7 to 10 ms); the functions map their stack traces on first use instead
 * (shared/observability/source-mapped-stacks.ts). bench:bundles times it for comparison.
 */
export const nodeSourceMapsOption = '--enable-source-maps';

/** The file NodejsFunction writes the bundle to (`index.mjs` for ESM, `index.js` for CommonJS). */
export const lambdaBundleFile = lambdaBundling.format === 'esm' ? 'index.mjs' : 'index.js';

/**
 * esbuild API options equivalent to the command line NodejsFunction runs for `lambdaBundling`
 * (aws-cdk-lib/aws-lambda-nodejs, Bundling.buildEsbuildArgs with local bundling:
 * `esbuild --bundle <entry> --target=node24 --platform=node --format=esm --outfile=<dir>/index.mjs
 * --minify --sourcemap --sources-content=false --banner:js=... --main-fields=module,main
 * --external:@aws-sdk/* --external:@smithy/*`). Every package is bundled as published: no
 * aliases to shims of ours (issue 32 removed the last, qs's side-channel).
 */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    bundle: true,
    target: lambdaBundling.target,
    platform: 'node',
    format: lambdaBundling.format,
    outfile,
    minify: lambdaBundling.minify,
    sourcemap: lambdaBundling.sourceMap,
    sourcesContent: lambdaBundling.sourcesContent,
    external: [...lambdaBundling.externalModules],
    banner: { js: lambdaBundling.banner },
    mainFields: [...lambdaBundling.mainFields],
  };
}
