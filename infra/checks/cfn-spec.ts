import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type { Property, PropertyType, Resource, SpecDatabase, TypeDefinition } from '@aws-cdk/service-spec-types';

/**
 * Synthesized templates checked against the CloudFormation resource specification
 * (@aws-cdk/aws-service-spec: AWS's registry schemas and resource specification, as CDK's own
 * code generator reads them), before CloudFormation sees them: every resource type exists, every
 * property is known for its type, required properties are present, and values have the type the
 * specification names. Values CloudFormation computes (Ref, Fn::*) are not checked.
 */

/** One finding: the resource (logical id), the path of the property inside it, what is wrong. */
export interface SpecFinding {
  resource: string;
  path: string;
  problem: string;
}

/** Resource types CloudFormation accepts without a schema: CDK's metadata and custom resources. */
const UNSPECIFIED_TYPE = /^(AWS::CDK::Metadata|Custom::.+|AWS::CloudFormation::CustomResource)$/;

export interface CfnSpec {
  resource(type: string): Resource | undefined;
  definition(reference: { $ref: string }): TypeDefinition | undefined;
}

let loaded: CfnSpec | undefined;

/** The specification shipped with the installed package (loaded once, ~0.6 s). */
export function cfnSpec(): CfnSpec {
  if (loaded) return loaded;
  const db: SpecDatabase = loadAwsServiceSpecSync();
  const byType = new Map(db.all('resource').map((resource) => [resource.cloudFormationType, resource]));
  loaded = {
    resource: (type) => byType.get(type),
    definition: (reference) => db.get('typeDefinition', reference.$ref) as TypeDefinition | undefined,
  };
  return loaded;
}

/** Top-level properties whose change makes CloudFormation replace a resource of `type`. */
export function replacementPropertiesOf(type: string, spec: CfnSpec = cfnSpec()): string[] {
  const resource = spec.resource(type);
  if (!resource) return [];
  return Object.entries(resource.properties)
    .filter(([, property]) => property.causesReplacement === 'yes')
    .map(([name]) => name)
    .sort();
}

/** A value CloudFormation works out at deploy time: only its shape could be checked, not its result. */
function isIntrinsic(value: unknown): boolean {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] === 'Ref' || keys[0]!.startsWith('Fn::'));
}

const describe = (value: unknown) => (Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value} (${JSON.stringify(value)})`);

/** Problems of `value` against `type`, at `path`. */
function checkValue(spec: CfnSpec, type: PropertyType, value: unknown, path: string): Array<{ path: string; problem: string }> {
  if (isIntrinsic(value)) return [];
  switch (type.type) {
    case 'json':
      return [];
    case 'string':
    case 'date-time':
      // CloudFormation passes numbers and booleans on as their text.
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        if (type.type === 'string' && type.allowedValues?.length && typeof value === 'string' && !type.allowedValues.includes(value)) {
          return [{ path, problem: `${JSON.stringify(value)} is not one of ${type.allowedValues.join(', ')}` }];
        }
        return [];
      }
      return [{ path, problem: `expected a string, got ${describe(value)}` }];
    case 'integer':
    case 'number': {
      const numeric = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (Number.isNaN(numeric)) return [{ path, problem: `expected ${type.type === 'integer' ? 'an integer' : 'a number'}, got ${describe(value)}` }];
      if (type.type === 'integer' && !Number.isInteger(numeric)) return [{ path, problem: `expected an integer, got ${describe(value)}` }];
      return [];
    }
    case 'boolean':
      return typeof value === 'boolean' || value === 'true' || value === 'false' ? [] : [{ path, problem: `expected a boolean, got ${describe(value)}` }];
    case 'null':
      return value === null ? [] : [{ path, problem: `expected null, got ${describe(value)}` }];
    case 'tag':
      return checkObject(
        spec,
        { Key: { type: { type: 'string' }, required: true }, Value: { type: { type: 'string' }, required: true } },
        value,
        path,
      );
    case 'array':
      if (!Array.isArray(value)) return [{ path, problem: `expected an array, got ${describe(value)}` }];
      return value.flatMap((element, index) => checkValue(spec, type.element, element, `${path}[${index}]`));
    case 'map':
      if (!value || typeof value !== 'object' || Array.isArray(value)) return [{ path, problem: `expected a map, got ${describe(value)}` }];
      return Object.entries(value).flatMap(([key, element]) => checkValue(spec, type.element, element, `${path}.${key}`));
    case 'union': {
      const attempts = type.types.map((member) => checkValue(spec, member, value, path));
      return attempts.some((problems) => problems.length === 0) ? [] : (attempts.sort((a, b) => a.length - b.length)[0] ?? []);
    }
    case 'ref': {
      const definition = spec.definition(type.reference as unknown as { $ref: string });
      if (!definition) return [];
      return checkObject(spec, definition.properties, value, path);
    }
    default:
      return [];
  }
}

/** An object of known properties: no unknown key, every required one present, each value of its type. */
function checkObject(spec: CfnSpec, properties: Record<string, Property>, value: unknown, path: string): Array<{ path: string; problem: string }> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [{ path, problem: `expected an object, got ${describe(value)}` }];
  const fields = value as Record<string, unknown>;
  const problems: Array<{ path: string; problem: string }> = [];
  const at = (name: string) => (path ? `${path}.${name}` : name);
  for (const [name, field] of Object.entries(fields)) {
    const property = properties[name];
    if (!property) problems.push({ path: at(name), problem: `unknown property (known: ${Object.keys(properties).sort().join(', ')})` });
    else problems.push(...checkValue(spec, property.type, field, at(name)));
  }
  for (const [name, property] of Object.entries(properties)) {
    if (property.required && fields[name] === undefined) problems.push({ path: at(name), problem: 'required property missing' });
  }
  return problems;
}

/** Everything in `template` the specification refuses, resource by resource. */
export function validateTemplate(template: { Resources?: Record<string, { Type: string; Properties?: Record<string, unknown> }> }, spec: CfnSpec = cfnSpec()): SpecFinding[] {
  const findings: SpecFinding[] = [];
  for (const [logicalId, resource] of Object.entries(template.Resources ?? {})) {
    if (UNSPECIFIED_TYPE.test(resource.Type)) continue;
    const definition = spec.resource(resource.Type);
    if (!definition) {
      findings.push({ resource: logicalId, path: '', problem: `unknown resource type ${resource.Type}` });
      continue;
    }
    for (const found of checkObject(spec, definition.properties, resource.Properties ?? {}, '')) {
      findings.push({ resource: logicalId, ...found, problem: `${resource.Type}: ${found.problem}` });
    }
  }
  return findings;
}
