import { describe, expect, it } from 'vitest';
import { routeGroups, type RouteGroup } from '../../shared/http/route-groups.js';
import { actionsOf, synth } from './support.js';

/** The KMS key of secret item values and OAuth tokens, and who may use it (docs/operations.md). */
const { stack, template, resourcesOfType, logicalIdOf, variablesOf, statementsOf } = synth();
const keyId = logicalIdOf(stack.secretsKey.key);
const keyArn = { 'Fn::GetAtt': [keyId, 'Arn'] };
const encryptingGroups = (Object.keys(routeGroups) as RouteGroup[]).filter((group) => ((routeGroups[group] as { ports?: readonly string[] }).ports ?? []).includes('encryption'));

describe('the secrets KMS key', () => {
  it('is a symmetric key with yearly rotation, kept when the stack is deleted', () => {
    const key = template.toJSON().Resources[keyId];
    expect(key).toMatchObject({ Type: 'AWS::KMS::Key', Properties: { EnableKeyRotation: true }, DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(key.Properties.KeySpec ?? 'SYMMETRIC_DEFAULT').toBe('SYMMETRIC_DEFAULT');
  });

  it('lets the integrations function encrypt with it, and nothing more', () => {
    expect(encryptingGroups).toEqual(['integrations']);
    const fn = stack.api.groupFunctions.integrations;
    expect(variablesOf(fn)).toMatchObject({ ENCRYPTION_ADAPTER: 'kms', SECRETS_KEY_ARN: keyArn });
    const kmsStatements = statementsOf(fn).filter((statement) => actionsOf(statement).some((action) => action.startsWith('kms:')));
    expect(kmsStatements).toHaveLength(1);
    expect(actionsOf(kmsStatements[0]!)).toEqual(['kms:Encrypt']);
    expect(kmsStatements[0]!.Resource).toEqual(keyArn);
  });

  it('is no other function’s: none has its ARN or any KMS action', () => {
    for (const [name, fn] of Object.entries(stack.functions)) {
      if (name === 'integrations') continue;
      expect(statementsOf(fn).flatMap(actionsOf).filter((action) => action.startsWith('kms:')), name).toEqual([]);
      expect(variablesOf(fn)?.SECRETS_KEY_ARN, name).toBeUndefined();
    }
    expect(Object.keys(resourcesOfType('AWS::KMS::Key'))).toContain(keyId);
  });
});
