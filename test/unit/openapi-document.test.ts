import { Validator } from '@seriousme/openapi-schema-validator';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../functions/docs/document.js';
import { operationDocs } from '../../functions/docs/operation-docs.js';
import { acceptsGzip } from '../../functions/docs/handler.js';
import type { Operation } from '../../shared/http/openapi/document.js';
import type { JsonSchema } from '../../shared/http/openapi/json-schema.js';
import { pathParamNames } from '../../shared/http/openapi/parameters.js';
import { routeGroups, routeKey, routes, type RouteDefinition } from '../../shared/http/routes.js';
import { allColumns, ALL_OPERATIONS, recordRoots, type CrudOperation, type ResourceDefinition } from '../../shared/resources/define.js';
import { resources } from '../../shared/resources/registry.js';

/**
 * The OpenAPI document against the route table it is generated from: every route is an
 * operation with its method, parameters, body, answers and credentials; list routes carry the
 * shared list parameters and the resource's own; and the whole is a valid OpenAPI 3.1 document.
 */
const document = openApiDocument();
const components = document.components as { schemas: Record<string, JsonSchema>; responses: Record<string, any> };

const operationOf = (route: RouteDefinition): Operation | undefined => document.paths[route.path]?.[route.method.toLowerCase()];

/** The registry resource and CRUD operation a route serves, if it is one of the engine's. */
function crudOf(route: RouteDefinition): { resource: ResourceDefinition; operation: CrudOperation } | undefined {
  for (const resource of resources) {
    const operation = route.operation.slice(resource.name.length + 1) as CrudOperation;
    if (route.operation.startsWith(`${resource.name}.`) && ALL_OPERATIONS.includes(operation)) return { resource, operation };
  }
  return undefined;
}

const resolve = (schema: JsonSchema): JsonSchema => (schema.$ref ? components.schemas[schema.$ref.replace('#/components/schemas/', '')]! : schema);
const queryParams = (operation: Operation) => new Map(operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => [parameter.name, parameter]));
const successOf = (operation: Operation) => Object.entries(operation.responses).find(([status]) => /^[23]\d\d$/.test(status));

/** The reference's shared list parameters (serializer only where the resource has serializers). */
const SHARED_LIST_PARAMS = ['ids', 'page', 'per_page', 'cursor', 'order_dir', 'root', 'created_at_from', 'created_at_to', 'fulltext', 'time_zone', 'format', 'columns'];

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (and the validator does refuse a broken copy)', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors, JSON.stringify(result.errors)?.slice(0, 2000)).toBeUndefined();
    expect(result.valid).toBe(true);
    const broken = structuredClone(document) as any;
    broken.paths['/api/v1/subscriptions'].get.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('gives every route its own operationId', () => {
    const ids = routes.map((route) => operationOf(route)?.operationId);
    expect(new Set(ids).size).toBe(routes.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });

  it('has exactly the routes of the route table', () => {
    const documented = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(routes.map(routeKey).sort());
  });

  it('documents only operations the route table has', () => {
    const served = new Set(routes.map((route) => route.operation));
    expect(Object.keys(operationDocs).filter((operation) => !served.has(operation))).toEqual([]);
  });

  it('tags operations with their route group, each tag described', () => {
    expect((document.tags as { name: string; description: string }[]).map((tag) => tag.name)).toEqual(Object.keys(routeGroups));
  });

  it('describes every error status with the error envelope, and ping, post and full\'s refusals in the partners\' shape too', () => {
    for (const [name, response] of Object.entries(components.responses)) {
      const content = response.content['application/json'];
      if (name.startsWith('Partner')) {
        expect(content.schema, name).toEqual({ anyOf: [{ $ref: '#/components/schemas/PartnerErrorEnvelope' }, { $ref: '#/components/schemas/ErrorEnvelope' }] });
        continue;
      }
      expect(content.schema, name).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
      expect(Object.keys(content.example.errors).length, name).toBeGreaterThan(0);
    }
    const ping = (document.paths as Record<string, any>)['/api/v1/inbound_webhooks/ping/{vanity_uri}'].post.responses;
    expect(ping['429']).toEqual({ $ref: '#/components/responses/PartnerTooManyRequests' });
    expect(ping['500']).toEqual({ $ref: '#/components/responses/InternalServerError' });
    expect(components.responses.UnprocessableEntity.content['application/json'].example).toMatchObject({ status: 422, errors: { target_url: ['is not a valid URL'] } });
  });

  describe('records as answers show them', () => {
    const rowSchemas = resources.map((resource) => [resource.name, components.schemas[resource.root.replace(/(^|_)([a-z0-9])/g, (_m, _s: string, c: string) => c.toUpperCase())]!] as const);

    it('type a field the update refuses (`v.never()`) as the create takes it, never as "no value allowed"', () => {
      const phoneNumber = rowSchemas.find(([name]) => name === 'phone_numbers')![1];
      expect(phoneNumber.properties!.number).toEqual({ anyOf: [{ type: 'string' }, { type: 'null' }] });
      for (const [name, row] of rowSchemas) {
        for (const [column, schema] of Object.entries(row.properties ?? {})) expect(schema, `${name}.${column}`).not.toHaveProperty('not');
      }
    });

    it('answer every `GET .../new` with the unsaved record (New<Resource>: null id and uuid)', () => {
      const newRoutes = routes.filter((route) => route.method === 'GET' && route.path.endsWith('/new'));
      expect(newRoutes.length).toBeGreaterThan(10);
      for (const route of newRoutes) {
        const schema = (successOf(operationOf(route)!)![1] as any).content['application/json'].schema;
        const rows = Object.values(schema.properties as Record<string, JsonSchema>).filter((property) => property.$ref?.includes('/New'));
        expect(rows.length, routeKey(route)).toBeGreaterThan(0);
        expect((resolve(rows[0]!).properties!.id as JsonSchema).type, routeKey(route)).toContain('null');
      }
    });

    it('allow null in every enumerated column (a record without that value shows null)', () => {
      for (const [name, row] of rowSchemas) {
        for (const [column, schema] of Object.entries(row.properties as Record<string, JsonSchema>)) {
          if (Array.isArray(schema.enum) && column !== 'type') expect(schema.enum, `${name}.${column}`).toContain(null);
        }
      }
    });
  });
});

describe.each(routes.map((route) => [routeKey(route), route] as const))('%s', (_key, route) => {
  const operation = operationOf(route)!;

  it('is an operation with a summary, its route group as tag and its path parameters', () => {
    expect(operation).toBeDefined();
    expect(operation.summary.length).toBeGreaterThan(3);
    expect(operation.tags).toEqual([route.group]);
    const pathParams = operation.parameters.filter((parameter) => parameter.in === 'path');
    expect(pathParams.map((parameter) => parameter.name)).toEqual(pathParamNames(route.path));
    for (const parameter of pathParams) expect(parameter.required).toBe(true);
  });

  it('answers success, and the errors its credentials, path and parameters can cause', () => {
    const statuses = Object.keys(operation.responses);
    expect(successOf(operation)).toBeDefined();
    // 422 too: the shared layer bounds every request's parameters (shared/http/input-limits.ts).
    for (const status of ['400', '413', '422', '500']) expect(statuses).toContain(status);
    expect(statuses.includes('401')).toBe(route.auth === 'basic' || (operationDocs[route.operation]?.errors ?? []).includes(401));
    // A member without the route's permission (docs/permissions.md), or the carrier's missing signature.
    const memberRefused = route.auth === 'basic' && route.permission !== 'company';
    expect(statuses.includes('403')).toBe(memberRefused || route.auth === 'carrier' || (operationDocs[route.operation]?.errors ?? []).includes(403));
    if (route.auth === 'basic') expect(operation['x-permission']).toEqual(route.permission === 'company' ? { any_credential: true } : { group: route.permission.group, action: route.permission.action, buyer_team: route.permission.buyerTeam === true });
    if (route.path.includes('{')) expect(statuses).toContain('404');
    for (const [status, response] of Object.entries(operation.responses)) {
      if (/^[45]/.test(status)) expect((response as { $ref: string }).$ref).toMatch(/^#\/components\/responses\//);
    }
  });

  it('names the credentials its `auth` takes', () => {
    const schemes = operation.security.flatMap((requirement) => Object.keys(requirement as object));
    switch (route.auth) {
      case 'basic':
        expect(operation.security).toEqual([{ basicAuth: [] }, { authToken: [] }]);
        break;
      case 'carrier':
        expect(operation.security).toEqual([{ carrierSignature: [] }]);
        break;
      case 'ping':
        // Optional: nothing, or a user's token when the webhook requires one.
        expect(operation.security).toEqual([{}, { authToken: [] }]);
        break;
      default:
        expect(schemes).toEqual([]);
    }
    if (route.auth !== 'basic') expect(operation.description, 'says how it is authorised instead').toBeTruthy();
  });

  const crud = crudOf(route);
  if (crud?.operation === 'list') {
    const { resource } = crud;
    it(`takes the shared list parameters and ${resource.name}' own filters, order and columns`, () => {
      const params = queryParams(operation);
      for (const name of [...SHARED_LIST_PARAMS, ...Object.keys(resource.filters ?? {})]) expect(params.has(name), name).toBe(true);
      expect(params.get('order')?.schema.enum).toEqual(resource.order?.values);
      expect(params.has('serializer')).toBe(Boolean(resource.serializers));
      if (resource.serializers) expect(params.get('serializer')!.schema.enum).toEqual(resource.serializers);
      expect((params.get('columns')!.schema.items as JsonSchema).enum).toEqual(allColumns(resource));
      expect(params.get('per_page')!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 500, default: 25 });
    });

    it(`answers the list envelope under \`${resource.plural}\`, or the bare array`, () => {
      const [, response] = successOf(operation)! as [string, any];
      const types = Object.keys(response.content);
      if (route.path.endsWith('.csv')) {
        expect(types).toEqual(['text/csv']);
        return;
      }
      const [envelope, bare] = response.content['application/json'].schema.anyOf;
      expect(envelope.required).toEqual(['status', 'errors', resource.plural, 'metadata']);
      expect(envelope.properties[resource.plural].items).toEqual(bare.items);
      expect(resolve(bare.items).properties).toHaveProperty('id');
      expect(types.includes('text/csv')).toBe(Boolean(resource.csv));
    });
  }

  if (crud && crud.operation !== 'list') {
    const { resource, operation: crudOperation } = crud;
    it(`answers the record envelope with \`${resource.root}\` and its columns`, () => {
      const [, response] = successOf(operation)! as [string, any];
      const envelope = response.content['application/json'].schema;
      const roots = recordRoots(resource);
      if (roots.length === 1) {
        expect(envelope.required).toEqual(['status', 'errors', resource.root, 'checksum', 'metadata']);
      } else {
        // A root per record kind (schedule actions: `action_dial`...): exactly one of them.
        expect(envelope.required).toEqual(['status', 'errors', 'checksum', 'metadata']);
        expect(envelope.oneOf).toEqual(roots.map((root) => ({ required: [root] })));
        expect(envelope.properties.metadata.properties.root.enum).toEqual(roots);
        for (const root of roots) expect(envelope.properties[root]).toEqual(envelope.properties[resource.root]);
      }
      const row = resolve(envelope.properties[resource.root]);
      expect(Object.keys(row.properties!)).toEqual(expect.arrayContaining(allColumns(resource)));
      if (crud.operation === 'new') {
        // Not saved: no id or uuid yet.
        expect(row.properties!.id).toEqual({ type: ['integer', 'null'], minimum: 1 });
        expect(row.properties!.uuid).toMatchObject({ type: ['string', 'null'] });
      } else {
        expect(row.properties!.id).toEqual({ type: 'integer', minimum: 1 });
      }
    });

    if (crudOperation === 'create' || crudOperation === 'update') {
      it(`takes the ${crudOperation} schema's fields as a JSON or form body`, () => {
        const schema = (crudOperation === 'create' ? resource.createSchema : resource.updateSchema) as unknown as v.ObjectSchema<v.ObjectEntries, undefined>;
        const body = operation.requestBody!;
        expect(Object.keys(body.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
        const described = resolve(body.content['application/json']!.schema);
        expect(Object.keys(described.properties!)).toEqual(Object.keys(schema.entries));
        const required = Object.entries(schema.entries).filter(([, entry]) => entry.type !== 'optional').map(([name]) => name);
        expect(described.required ?? []).toEqual(required);
        expect(body.required).toBe(required.length > 0);
      });
    }
  }

  if (!crud) {
    const doc = operationDocs[route.operation];
    it('has its own documentation, with the parameters of the schema it validates with', () => {
      expect(doc, `add ${route.operation} to functions/docs/operation-docs.ts`).toBeDefined();
      if (!doc?.params) return;
      const inBody = route.method === 'POST' || route.method === 'PUT';
      const documented = inBody ? Object.keys(resolve(operation.requestBody!.content['application/json']!.schema).properties ?? {}) : [...queryParams(operation).keys()];
      const declared = entryNames(doc.params);
      expect(documented.length).toBeGreaterThan(0);
      expect(declared).toEqual(expect.arrayContaining(documented));
      // Left out only: a `serializer` that accepts no value (the lists without serializers).
      expect(declared.filter((name) => !documented.includes(name))).toEqual(declared.includes('serializer') && !documented.includes('serializer') ? ['serializer'] : []);
    });
  }
});

/** The entries of an object schema, or of the object schema a pipe starts with. */
function entryNames(schema: v.GenericSchema): string[] {
  if ('entries' in schema) return Object.keys(schema.entries as object);
  if ('pipe' in schema) return entryNames((schema.pipe as v.GenericSchema[])[0]!);
  throw new Error(`not an object schema: ${schema.type}`);
}

describe('acceptsGzip', () => {
  it.each([
    ['gzip, deflate, br', true],
    ['br;q=1.0, gzip;q=0.8', true],
    ['*', true],
    ['identity', false],
    ['gzip;q=0', false],
    ['gzip;q=0.000, br', false],
    [undefined, false],
  ] as const)('%s → %s', (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });
});
