import { Duration, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { METRICS_NAMESPACE } from '../../shared/observability/metric-names.js';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { lambdaBundling, powertoolsLayer } from './bundling-options.js';
import { FUNCTION_MEMORY_MB } from '../function-sizing.js';

/**
 * Powertools' service name on every function: the `service` dimension of the business metrics
 * (EMF) the dashboard and alarms read, and the service field of traces and logs.
 */
export const METRICS_SERVICE = 'call-tracking';

/**
 * The Node.js runtime of every function: the newest Lambda offers (bundling-options.ts targets the
 * same version). `npm start`, the tests and the CLIs run on the same major, from the `node`
 * devDependency (test/unit/toolchain.test.ts holds them to this one).
 */
export const LAMBDA_RUNTIME = lambda.Runtime.NODEJS_24_X;

/** The repository root, where package.json, package-lock.json and tsconfig.json live. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceFunctionProps {
  /** Entry file relative to the repository root, e.g. `functions/subscriptions/handler.ts`. */
  entry: string;
  description?: string;
  /** Set as TABLE_NAME; omit for functions that never touch the table. */
  tableName?: string;
  /** Longer than the 10 s default only for scheduled jobs that walk many items. */
  timeout?: Duration;
  /** How long the function's log group keeps its logs (the `logRetentionDays` setting). */
  logRetention: logs.RetentionDays;
  /** Concurrency kept for this function alone (and its ceiling); unset: the account's shared pool. */
  reservedConcurrency?: number;
  /** Scheduled (asynchronously invoked) functions: where an invocation goes after Lambda's retries fail. */
  deadLetterQueue?: IQueue;
  /**
   * Shell commands run after bundling (inputDir: the repository, outputDir: the asset), for files
   * the function reads at run time instead of bundling them (the docs function's, shipped-files.ts).
   */
  afterBundling?: (inputDir: string, outputDir: string) => string[];
}

/** Powertools' layer of the pinned release, once per stack (its ARN read from Powertools' public SSM parameter at deploy time). */
function powertoolsLayerOf(scope: Construct): lambda.ILayerVersion {
  const stack = Stack.of(scope);
  const id = 'PowertoolsLayer';
  const existing = stack.node.tryFindChild(id) as lambda.ILayerVersion | undefined;
  if (existing) return existing;
  const arn = ssm.StringParameter.valueForStringParameter(stack, powertoolsLayer.ssmParameter(powertoolsLayer.release));
  return lambda.LayerVersion.fromLayerVersionArn(stack, id, arn);
}

/** Creates a NodejsFunction with the service-wide defaults, so every function is built the same way. */
export function createServiceFunction(scope: Construct, id: string, props: ServiceFunctionProps): NodejsFunction {
  // An explicit log group (rather than the deprecated logRetention) needs no custom resource.
  const logGroup = new logs.LogGroup(scope, `${id}Logs`, { retention: props.logRetention });

  return new NodejsFunction(scope, id, {
    entry: path.join(repoRoot, props.entry),
    handler: 'handler',
    description: props.description,
    runtime: LAMBDA_RUNTIME,
    architecture: lambda.Architecture.ARM_64,
    memorySize: FUNCTION_MEMORY_MB,
    timeout: props.timeout ?? Duration.seconds(10),
    logGroup,
    tracing: lambda.Tracing.ACTIVE,
    // The Powertools Tracer, external to the bundle (bundling-options.ts, powertoolsLayer).
    layers: [powertoolsLayerOf(scope)],
    reservedConcurrentExecutions: props.reservedConcurrency,
    deadLetterQueue: props.deadLetterQueue,
    projectRoot: repoRoot,
    depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
    environment: {
      ...(props.tableName ? { TABLE_NAME: props.tableName } : {}),
      POWERTOOLS_SERVICE_NAME: METRICS_SERVICE,
      POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
    },
    bundling: {
      // The project's own esbuild: no Docker needed to synth or deploy.
      forceDockerBundling: false,
      // The settings of bundling-options.ts, which bench/bundles.ts builds with too.
      format: { esm: OutputFormat.ESM, cjs: OutputFormat.CJS }[lambdaBundling.format],
      target: lambdaBundling.target,
      minify: lambdaBundling.minify,
      sourceMap: lambdaBundling.sourceMap,
      sourcesContent: lambdaBundling.sourcesContent,
      mainFields: [...lambdaBundling.mainFields],
      banner: lambdaBundling.banner,
      externalModules: [...lambdaBundling.externalModules],
      ...(props.afterBundling ? { commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: props.afterBundling } } : {}),
    },
  });
}
