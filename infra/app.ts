import { App } from 'aws-cdk-lib';
import { applyNagChecks } from './nag.js';
import { readSettings, stackName } from './settings.js';
import { CallTrackingStack } from './stack.js';

const app = new App();

// Pin the environment only when the CLI supplies it, so `cdk synth` still works without credentials.
const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

// One stack per stage (cdk.json's `stage`, or `-c stage=...`), named after it.
const { stage } = readSettings(app.node);
new CallTrackingStack(app, stackName(stage), {
  stage,
  env: account || region ? { account, region } : undefined,
  description: `Self-hosted call tracking service (${stage}): HTTP API, route-group functions, the single table, alarms and a dashboard.`,
});

// Always on: every synth and deploy checks the stack, so a new resource cannot skip the review.
applyNagChecks(app);
