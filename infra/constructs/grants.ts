import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { emailDomain } from '../settings.js';

/**
 * Lets the function send e-mail from `emailFrom` and nothing else. SES authorises a send against
 * the identity that covers the sender: the address itself if it is verified, else its domain,
 * so both identities are allowed (whichever one the operator verified).
 */
export function allowSendingEmail(fn: IFunction, emailFrom: string): void {
  const stack = Stack.of(fn);
  const identity = (name: string) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName: name });
  fn.addToRolePolicy(
    new iam.PolicyStatement({
      actions: ['ses:SendEmail'],
      resources: [identity(emailFrom), identity(emailDomain(emailFrom))],
    }),
  );
}

/**
 * The ARN IAM matches a Secrets Manager secret by: a complete ARN as given; a name (or an ARN
 * without the 6-character suffix Secrets Manager appends) followed by `-??????`.
 */
export function secretArnForPolicies(scope: IFunction, nameOrArn: string): string {
  if (nameOrArn.startsWith('arn:')) return /-[A-Za-z0-9]{6}$/.test(nameOrArn) ? nameOrArn : `${nameOrArn}-??????`;
  return Stack.of(scope).formatArn({
    service: 'secretsmanager',
    resource: 'secret',
    resourceName: `${nameOrArn}-??????`,
    arnFormat: ArnFormat.COLON_RESOURCE_NAME,
  });
}

/** Lets the function read that one secret's value (not describe or list secrets). */
export function allowReadingSecret(fn: IFunction, nameOrArn: string): void {
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secretArnForPolicies(fn, nameOrArn)] }));
}
