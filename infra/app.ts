import { App } from 'aws-cdk-lib';
import { CallTrackingStack } from './stack.js';

const app = new App();

// Pin the environment only when the CLI supplies it, so `cdk synth` still works without credentials.
const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

new CallTrackingStack(app, 'CallTrackingService', {
  env: account || region ? { account, region } : undefined,
  description: 'Self-hosted call tracking service: HTTP API, route-group functions and the single table.',
});
