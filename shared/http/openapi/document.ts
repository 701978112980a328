import type { RoutePermission } from '../../auth/permissions.js';
import type * as v from 'valibot';
import { ALL_OPERATIONS, recordRoots, type CrudOperation, type ResourceDefinition } from '../../resources/define.js';
import type { RouteGroupDefinition } from '../route-groups.js';
import { routeKey, type RouteDefinition } from '../route-definition.js';
import { ErrorEnvelope, errorResponseName, errorResponses, listEnvelope, ListMetadata, PartnerErrorEnvelope, partnerErrorResponseName, partnerErrorResponses, recordEnvelope } from './envelopes.js';
import { jsonSchemaOf, type JsonSchema } from './json-schema.js';
import type { ErrorStatus, OperationDoc, ResponseDoc, RowsDoc } from './operation-doc.js';
import { operationIds } from './operation-ids.js';
import { freeQueryParameter, pathParameters, queryParameters, type Parameter } from './parameters.js';
import { resourceOperationDoc } from './resource-operations.js';
import { columnsSchema, resourceRowSchema, unsavedRowSchema } from './rows.js';
import { authDocs, securitySchemes } from './security.js';

/**
 * The OpenAPI 3.1 document of the service, generated from the route table, the resource
 * registry and the documentation of the other operations; never written by hand. Built once per
 * process by whoever serves it (functions/docs/).
 */
export interface DocumentSources {
  routes: readonly RouteDefinition[];
  resources: readonly ResourceDefinition[];
  groups: Readonly<Record<string, RouteGroupDefinition>>;
  /** The documentation of every operation the resource engine does not serve, by operation name. */
  operations: Readonly<Record<string, OperationDoc>>;
}

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, Operation>> };

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: unknown[];
  parameters: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
  /** What a user needs to call a basic route (docs/permissions.md). */
  'x-permission'?: Record<string, unknown>;
}

const DESCRIPTION = [
  'Call tracking, call routing and lead management. Everything under `/api/v1`.',
  '',
  '- **Authentication**: `Authorization: Basic base64(public_key:private_key)`, or a user\'s `auth_token` parameter. Routes that take other credentials say so.',
  '- **Parameters**: bodies are JSON or forms (`trigger_fields[offer_id]=12`), and query parameters are merged in (the body wins). Numbers and booleans may be sent as text; booleans also as 1, yes, on, 0, no, off.',
  '- **Answers**: one record comes in an envelope with `status`, `errors`, the record under its root node, `checksum` and `metadata.root`; lists have the plural root and paging `metadata`, or are the bare array with `root=false`.',
  '- **Errors** use the same envelope: `status` repeats the HTTP status and `errors` holds messages per field (`base` for the request as a whole). Another company\'s record is a 404, never a 403.',
  '',
  'This document is generated from the service\'s route table and validation schemas. Where a rule is checked in code the schema cannot show, the parameter is described by its JSON type.',
].join('\n');

const pascal = (name: string) => name.replace(/(^|_)([a-z0-9])/g, (_match, _sep: string, char: string) => char.toUpperCase());
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The registry resource whose CRUD operation a route serves, if any. */
function resourceServing(route: RouteDefinition, resources: readonly ResourceDefinition[]): ResourceDefinition | undefined {
  return resources.find((resource) => {
    const prefix = `${resource.name}.`;
    return route.operation.startsWith(prefix) && ALL_OPERATIONS.includes(route.operation.slice(prefix.length) as CrudOperation);
  });
}

/**
 * The error statuses of a route: those every request can meet (422 too: the shared layer bounds
 * every request's parameters, shared/http/input-limits.ts), those its credentials and path
 * imply, and its own.
 */
export function errorStatuses(route: RouteDefinition, doc: OperationDoc): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>([400, 413, 422, 500, ...(doc.errors ?? [])]);
  if (route.auth === 'basic') statuses.add(401);
  // A member without the route's permission; the carrier's routes without its signature.
  if ((route.auth === 'basic' && route.permission !== 'company') || route.auth === 'carrier') statuses.add(403);
  // A path naming something; a buyer team member, to whom whatever is outside its buyer does not exist.
  if (route.path.includes('{') || (route.auth === 'basic' && route.permission !== 'company')) statuses.add(404);
  return [...statuses].sort((a, b) => a - b);
}

/** What a user needs to call a basic route (docs/permissions.md), said in its description. */
function permissionNote(route: RouteDefinition): string | undefined {
  if (route.auth !== 'basic') return undefined;
  if (route.permission === 'company') return 'Any credential of the company may call it.';
  const { group, action, buyerTeam } = route.permission;
  return [
    `A member's teams must grant \`${action}\` on \`${group}\` (key pairs and admin users may always); without it the answer is a 403 naming the permission.`,
    buyerTeam ? "Buyer team members may call it for their own buyer's records; others are a 404 to them." : undefined,
  ]
    .filter(Boolean)
    .join(' ');
}

/** `x-permission`: the route's declared permission, for generated clients and tools. */
function permissionExtension(permission: RoutePermission): Record<string, unknown> {
  return permission === 'company' ? { any_credential: true } : { group: permission.group, action: permission.action, buyer_team: permission.buyerTeam === true };
}

/** A `.csv` route: the list operation's answer as CSV only. */
function asCsv(doc: OperationDoc): OperationDoc {
  if (!('list' in doc.response)) return doc;
  const description = 'One row per record, the `columns` asked for (all by default) as the header.';
  return { ...doc, summary: `${doc.summary} as CSV`, description, response: { ...doc.response, csv: 'only' } };
}

export function buildOpenApiDocument(sources: DocumentSources): OpenApiDocument {
  const schemas: Record<string, JsonSchema> = { ErrorEnvelope, PartnerErrorEnvelope, ListMetadata };
  // Request bodies the components name: each resource's create and update schema.
  const namedBodies = new Map<v.GenericSchema, string>();
  for (const resource of sources.resources) {
    const name = pascal(resource.root);
    schemas[name] = resourceRowSchema(resource);
    for (const [schema, suffix] of [[resource.createSchema, 'Create'], [resource.updateSchema, 'Update']] as const) {
      if (namedBodies.has(schema)) continue;
      namedBodies.set(schema, `${name}${suffix}`);
      schemas[`${name}${suffix}`] = jsonSchemaOf(schema);
    }
  }

  const resourceNamed = (name: string): ResourceDefinition => {
    const resource = sources.resources.find((candidate) => candidate.name === name);
    if (!resource) throw new Error(`No resource ${name}`);
    return resource;
  };

  /** The rows' component; `unsaved`: its `New<Name>` variant, as `new` answers it (created on first use). */
  const rowsSchema = (rows: RowsDoc, unsaved = false): JsonSchema => {
    const name = 'resource' in rows ? pascal(resourceNamed(rows.resource).root) : rows.name;
    if (!('resource' in rows)) schemas[name] ??= columnsSchema(rows.columns, {}, rows.types);
    if (!unsaved) return ref(name);
    schemas[`New${name}`] ??= unsavedRowSchema(schemas[name]!);
    return ref(`New${name}`);
  };

  /** The envelope's `associations` of a resource that declares some (docs/resources.md, "Associations"). */
  const associationsSchema = (rows: RowsDoc): JsonSchema | undefined => {
    const declared = 'resource' in rows ? sources.resources.find((candidate) => candidate.name === rows.resource)?.associations : undefined;
    if (!declared) return undefined;
    const properties = Object.fromEntries(
      Object.entries(declared).map(([name, association]): [string, JsonSchema] => [
        name,
        {
          type: 'array',
          items: { type: 'object', properties: { id: { type: 'integer' } } },
          description: `A brief form of each \`${association.resource}\` record \`${association.via}\` names (those that still exist).`,
        },
      ]),
    );
    return { type: 'object', properties };
  };

  const successResponse = (response: ResponseDoc): [string, unknown] => {
    if ('record' in response) {
      const resource = 'resource' in response.rows ? resourceNamed(response.rows.resource) : undefined;
      const roots = resource?.root === response.record ? recordRoots(resource) : [response.record];
      const schema = recordEnvelope(roots, rowsSchema(response.rows, response.unsaved), associationsSchema(response.rows), response.extra);
      const under = roots.length === 1 ? `under \`${response.record}\`` : `under its root node: ${roots.map((root) => `\`${root}\``).join(', ')}`;
      return ['200', { description: `The record ${under}.`, content: { 'application/json': { schema } }, ...(response.headers ? { headers: response.headers } : {}) }];
    }
    if ('list' in response) {
      const json = { 'application/json': { schema: listEnvelope(response.list, rowsSchema(response.rows), response.alsoAs, response.extra) } };
      const csv = { 'text/csv': { schema: { type: 'string' } } };
      const content = response.csv === 'only' ? csv : response.csv === 'also' ? { ...json, ...csv } : json;
      const description = `The records under \`${response.list}\`${response.csv === 'also' ? '; CSV with `format=csv`' : ''}.`;
      return ['200', { description, content, ...(response.headers ? { headers: response.headers } : {}) }];
    }
    const content = response.content ? Object.fromEntries(Object.entries(response.content).map(([type, schema]) => [type, { schema }])) : undefined;
    return [String(response.status), { description: response.description, ...(content ? { content } : {}), ...(response.headers ? { headers: response.headers } : {}) }];
  };

  const body = (schema: v.GenericSchema) => {
    const named = namedBodies.get(schema);
    const converted = jsonSchemaOf(schema);
    const described = named ? ref(named) : converted;
    return { required: (converted.required?.length ?? 0) > 0, content: { 'application/json': { schema: described }, 'application/x-www-form-urlencoded': { schema: described } } };
  };

  const ids = operationIds(sources.routes);
  const paths: OpenApiDocument['paths'] = {};
  for (const route of sources.routes) {
    const resource = resourceServing(route, sources.resources);
    const declared = resource ? resourceOperationDoc(resource, route) : sources.operations[route.operation];
    if (!declared) throw new Error(`No documentation for ${route.operation} (${routeKey(route)}): add it to functions/docs/operation-docs.ts`);
    const doc = route.path.endsWith('.csv') ? asCsv(declared) : declared;
    const inBody = route.method === 'POST' || route.method === 'PUT';
    const auth = authDocs[route.auth];
    const parameters = [
      ...pathParameters(route.path, doc),
      ...(doc.params && !inBody ? queryParameters(doc.params) : []),
      ...(doc.query ? queryParameters(doc.query) : []),
      ...(doc.freeParams && !inBody ? [freeQueryParameter(doc.freeParams)] : []),
    ];
    const requestBody = inBody
      ? doc.params
        ? body(doc.params)
        : doc.freeParams
          ? { required: false, content: Object.fromEntries(['application/json', 'application/x-www-form-urlencoded'].map((type) => [type, { schema: { type: 'object', additionalProperties: true, description: doc.freeParams } as JsonSchema }])) }
          : undefined
      : undefined;
    const [status, success] = successResponse(doc.response);
    const description = [doc.description, auth.note, permissionNote(route)].filter(Boolean).join('\n\n');
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: ids.get(routeKey(route))!,
      summary: doc.summary,
      ...(description ? { description } : {}),
      ...(route.auth === 'basic' ? { 'x-permission': permissionExtension(route.permission) } : {}),
      tags: [route.group],
      security: auth.security,
      parameters,
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [status]: success,
        // Ping, post and full refuse in the partners' shape (shared/routing/inbound.ts).
        ...Object.fromEntries(
          errorStatuses(route, doc).map((error) => [String(error), { $ref: `#/components/responses/${route.auth === 'ping' && error < 500 ? partnerErrorResponseName(error) : errorResponseName(error)}` }]),
        ),
      },
    };
  }

  return {
    openapi: '3.1.1',
    info: { title: 'Call tracking service API', version: '1.0', description: DESCRIPTION },
    // The document is served by the deployment it describes: paths are relative to its host.
    servers: [{ url: '/', description: 'This deployment' }],
    security: authDocs.basic.security,
    tags: Object.entries(sources.groups).map(([name, group]) => ({ name, description: group.description })),
    paths,
    components: { schemas, responses: { ...errorResponses(), ...partnerErrorResponses() }, securitySchemes },
  };
}
