/**
 * The resources that hold customer data or make it readable, pinned: their CloudFormation
 * logical ids, types and the properties whose change makes CloudFormation replace them. A
 * replacement (or a logical id that disappears) deletes the old resource: the table's calls and
 * leads, the messages in a queue, a bucket's recordings and uploads, the KMS key every stored
 * secret is encrypted with. infra/stateful-resources.json is the committed list, compared with
 * the synthesized stacks by test/infra/deploy-safety.test.ts.
 */

/** The kinds of resource whose loss loses data (issue 33): the table, queues, buckets, the KMS key, secrets. */
export const STATEFUL_TYPES = [
  'AWS::DynamoDB::GlobalTable',
  'AWS::DynamoDB::Table',
  'AWS::SQS::Queue',
  'AWS::S3::Bucket',
  'AWS::KMS::Key',
  'AWS::SecretsManager::Secret',
] as const;

/**
 * Properties pinned beside those the specification marks `causesReplacement`: a KMS key's
 * spec, usage and region scope cannot change (CloudFormation fails the update rather than
 * replacing it, but a "fix" by renaming the construct would then replace it).
 */
const ALSO_PINNED: Record<string, readonly string[]> = {
  'AWS::KMS::Key': ['KeySpec', 'KeyUsage', 'MultiRegion'],
};

/** One pinned resource, as committed in infra/stateful-resources.json. */
export interface StatefulResource {
  logicalId: string;
  type: string;
  /** The template's value of each replacement-forcing property of the type; null when unset (CloudFormation's default: setting it replaces too). */
  replacementProperties: Record<string, unknown>;
}

/** The committed file: per stage, the pinned resources in logical-id order. */
export type StatefulResourceList = Record<string, StatefulResource[]>;

/** The parts of a CloudFormation template read here. */
export interface TemplateResources {
  Resources?: Record<string, { Type: string; Properties?: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;
}

/** Replacement-forcing property names of a type (from the CloudFormation specification, infra/checks/cfn-spec.ts). */
export type ReplacementProperties = (type: string) => readonly string[];

/** The template's stateful resources, with the values of their replacement-forcing properties. */
export function statefulResourcesOf(template: TemplateResources, replacementPropertiesOf: ReplacementProperties): StatefulResource[] {
  const stateful = new Set<string>(STATEFUL_TYPES);
  return Object.entries(template.Resources ?? {})
    .filter(([, resource]) => stateful.has(resource.Type))
    .map(([logicalId, resource]) => {
      const names = [...new Set([...replacementPropertiesOf(resource.Type), ...(ALSO_PINNED[resource.Type] ?? [])])].sort();
      const properties = resource.Properties ?? {};
      const pinned = Object.fromEntries(names.map((name) => [name, properties[name] ?? null]));
      return { logicalId, type: resource.Type, replacementProperties: pinned };
    })
    .sort((a, b) => a.logicalId.localeCompare(b.logicalId));
}

/** Stateful resources not retained when deleted or replaced: `<logical id> (<type>)`. */
export function unretained(template: TemplateResources): string[] {
  const stateful = new Set<string>(STATEFUL_TYPES);
  return Object.entries(template.Resources ?? {})
    .filter(([, resource]) => stateful.has(resource.Type) && (resource.DeletionPolicy !== 'Retain' || resource.UpdateReplacePolicy !== 'Retain'))
    .map(([logicalId, resource]) => `${logicalId} (${resource.Type}): DeletionPolicy ${resource.DeletionPolicy ?? 'Delete'}, UpdateReplacePolicy ${resource.UpdateReplacePolicy ?? 'Delete'}; give it removalPolicy: RemovalPolicy.RETAIN`);
}

const DATA_AT_RISK: Record<string, string> = {
  'AWS::DynamoDB::GlobalTable': 'every record of every company (calls, leads, buyers, keys)',
  'AWS::DynamoDB::Table': 'every record of every company',
  'AWS::SQS::Queue': 'the messages waiting in it (events not yet delivered, lead steps, dead letters kept for a redrive)',
  'AWS::S3::Bucket': 'its objects (recordings, transcripts, uploads, exports)',
  'AWS::KMS::Key': 'the ability to decrypt every secret and OAuth token stored with it',
  'AWS::SecretsManager::Secret': 'the secret value',
};

const MIGRATION_HINT =
  'If this change is on purpose, write its data migration in docs/operations.md ("Upgrades that keep data"), then update infra/stateful-resources.json (npm run stateful-resources -- --write).';

/**
 * What differs between the committed list and the synthesized stack, one message per resource,
 * each saying what data the change would destroy. Empty when the stack keeps every pinned
 * resource as it is. A resource only in the stack is reported too: pin it.
 */
export function compareStatefulResources(stage: string, committed: readonly StatefulResource[], synthesized: readonly StatefulResource[]): string[] {
  const problems: string[] = [];
  const now = new Map(synthesized.map((resource) => [resource.logicalId, resource]));
  const before = new Map(committed.map((resource) => [resource.logicalId, resource]));
  for (const pinned of committed) {
    const risk = DATA_AT_RISK[pinned.type] ?? 'its data';
    const current = now.get(pinned.logicalId);
    if (!current) {
      const renamed = synthesized.filter((resource) => resource.type === pinned.type && !before.has(resource.logicalId)).map((resource) => resource.logicalId);
      problems.push(
        `[${stage}] ${pinned.type} ${pinned.logicalId} is gone from the stack${renamed.length ? ` (renamed to ${renamed.join(' or ')}?)` : ''}: ` +
          `CloudFormation would delete it (or, retained, orphan it and start an empty one), losing ${risk}. Keep its construct id and path. ${MIGRATION_HINT}`,
      );
      continue;
    }
    if (current.type !== pinned.type) {
      problems.push(`[${stage}] ${pinned.logicalId} changes type from ${pinned.type} to ${current.type}: CloudFormation would replace it, losing ${risk}. ${MIGRATION_HINT}`);
      continue;
    }
    const names = new Set([...Object.keys(pinned.replacementProperties), ...Object.keys(current.replacementProperties)]);
    for (const name of [...names].sort()) {
      const was = JSON.stringify(pinned.replacementProperties[name] ?? null);
      const is = JSON.stringify(current.replacementProperties[name] ?? null);
      if (was !== is) {
        problems.push(`[${stage}] ${pinned.type} ${pinned.logicalId}: ${name} changes from ${was === 'null' ? '(unset)' : was} to ${is === 'null' ? '(unset)' : is}; a change of ${name} makes CloudFormation replace the resource, losing ${risk}. ${MIGRATION_HINT}`);
      }
    }
  }
  for (const added of synthesized) {
    if (!before.has(added.logicalId)) {
      problems.push(`[${stage}] ${added.type} ${added.logicalId} is new and not pinned: add it to infra/stateful-resources.json (npm run stateful-resources -- --write) so no later change can replace it unnoticed.`);
    }
  }
  return problems;
}
