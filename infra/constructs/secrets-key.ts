import { RemovalPolicy } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/**
 * The KMS key secret item values and OAuth tokens are encrypted with (shared/adapters/aws/kms-encryption.ts,
 * directly, values up to 4 KB, with an encryption context binding company, record and field).
 * Rotated yearly by KMS (old ciphertexts keep decrypting) and retained when the stack is deleted,
 * like the table: deleting it would make every stored secret unreadable.
 */
export class SecretsKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'Secret item values and OAuth tokens stored in the table',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /**
   * Lets the function encrypt with the key and tells it the key's ARN. Encrypt only: nothing the
   * API serves reads a secret back; the code that will (outgoing requests using secrets) gets
   * kms:Decrypt on its own function.
   */
  allowEncrypting(fn: IFunction & { addEnvironment(key: string, value: string): unknown }): void {
    fn.addEnvironment('ENCRYPTION_ADAPTER', 'kms');
    fn.addEnvironment('SECRETS_KEY_ARN', this.key.keyArn);
    this.key.grant(fn, 'kms:Encrypt');
  }
}
