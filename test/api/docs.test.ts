import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../../functions/docs/document.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { call, useGateway, type ApiReply } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

/**
 * The API describing itself, through the gateway: the OpenAPI document, the reference page and
 * its scripts, the root pointing at the page; and the service's answers matching what the
 * document says of them.
 */
const gateway = useGateway();

const RENDERER_FILE = new URL('../../node_modules/@scalar/api-reference/dist/browser/standalone.js', import.meta.url);

/** The raw bytes of a GET, without the decompression fetch does. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${gateway.baseUrl}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

const scriptPaths = (html: string) => [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((match) => match[1]!);

describe('GET /api/v1/openapi.json', () => {
  it('answers the OpenAPI document as JSON, without credentials', async () => {
    const reply = await call(gateway, { path: '/api/v1/openapi.json' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.body.openapi).toMatch(/^3\.1\./);
    expect(reply.body).toEqual(JSON.parse(JSON.stringify(openApiDocument())));
  });
});

describe('GET /docs', () => {
  it('answers an HTML page that loads its scripts from this service only', async () => {
    const reply = await call(gateway, { path: '/docs' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(reply.text).toContain('<div id="app"></div>');
    expect(reply.text).toContain('href="/api/v1/openapi.json"');
    const scripts = scriptPaths(reply.text);
    expect(scripts).toHaveLength(2);
    for (const script of scripts) expect(script).toMatch(/^\/docs\/assets\/[a-z]+-[0-9a-f]{16}\.js$/);
    const csp = reply.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
  });

  it("serves the renderer's standalone script from node_modules unchanged, gzipped when asked, cached for good", async () => {
    const [rendererPath] = scriptPaths((await call(gateway, { path: '/docs' })).text);
    const plain = await rawGet(rendererPath!, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(readFileSync(RENDERER_FILE))).toBe(true);
    const gzipped = await rawGet(rendererPath!, { 'accept-encoding': 'gzip, deflate, br' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.vary).toBe('accept-encoding');
    expect(gzipped.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
  });

  it('starts the renderer on the document, with nothing sent elsewhere', async () => {
    const [, startPath] = scriptPaths((await call(gateway, { path: '/docs' })).text);
    const start = await call(gateway, { path: startPath! });
    expect(start.status).toBe(200);
    expect(start.text).toContain('Scalar.createApiReference');
    expect(start.text).toContain('"url":"/api/v1/openapi.json"');
    expect(start.text).toContain('"withDefaultFonts":false');
    expect(start.text).toContain('"telemetry":false');
  });

  it('answers 404 with the error envelope for any other asset name', async () => {
    for (const name of ['scalar.js', 'scalar-0000000000000000.js', '..%2Fpackage.json']) {
      const reply = await call(gateway, { path: `/docs/assets/${name}` });
      expect(reply.status, name).toBe(404);
      expect(reply.body).toMatchObject({ status: 404, errors: { base: ['Not found'] } });
    }
  });
});

describe('GET /', () => {
  it('points to the operator console', async () => {
    const response = await fetch(`${gateway.baseUrl}/`, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/app');
  });
});

describe("the service's answers match the document", () => {
  const BASE = 'https://service.invalid/openapi.json';
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ ...(JSON.parse(JSON.stringify(openApiDocument())) as object), $id: BASE });
  const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
  const document = openApiDocument() as any;

  /** Checks a reply against the schema the document gives its route and status. */
  function expectDocumented(path: string, method: string, reply: ApiReply): void {
    const response = document.paths[path][method].responses[String(reply.status)];
    expect(response, `${method} ${path} documents ${reply.status}`).toBeDefined();
    const location = response.$ref ? `${response.$ref.slice(1)}/content/application~1json/schema` : `/${pointer('paths', path, method, 'responses', String(reply.status), 'content', 'application/json', 'schema')}`;
    const validate = ajv.compile({ $ref: `${BASE}#${location}` });
    expect(validate(reply.body), `${method.toUpperCase()} ${path} ${reply.status}: ${JSON.stringify(validate.errors)?.slice(0, 800)}`).toBe(true);
  }

  let company: TestCompany;
  const created: Record<string, Record<string, any>> = {};

  beforeAll(async () => {
    company = await createTestCompany('apidoc');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Doc buyer', number: '+12125550142', tier: 1, current_conversion_revenue: 12.5, record_token_filter_list: ['state:CA|NV'] });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Doc offer', buyer_ids: [buyer.id] });
    Object.assign(created, {
      buyers: buyer,
      offers: offer,
      subscriptions: await createThrough(gateway, company, '/api/v1/subscriptions', { target_url: 'https://hooks.example.com/doc', event: 'call_ended', trigger_fields: { offer_id: offer.id } }),
      traffic_sources: await createThrough(gateway, company, '/api/v1/traffic_sources', { name: 'Doc source' }),
      outgoing_webhook_urls: await createThrough(gateway, company, '/api/v1/outgoing_webhook_urls', { url: 'https://hooks.example.com/{{call_id}}', headers: { 'X-Doc': '1' } }),
      inbound_webhooks: await createThrough(gateway, company, '/api/v1/inbound_webhooks', { vanity_uri: `doc-${company.id}`, offer_id: offer.id }),
    });
  });

  it.each(['buyers', 'offers', 'subscriptions', 'traffic_sources', 'outgoing_webhook_urls', 'inbound_webhooks'])('for %s: list, bare list and show', async (name) => {
    const as = (path: string) => call(gateway, { path, authorization: company.authorization });
    expectDocumented(`/api/v1/${name}`, 'get', await as(`/api/v1/${name}`));
    expectDocumented(`/api/v1/${name}`, 'get', await as(`/api/v1/${name}?root=false`));
    expectDocumented(`/api/v1/${name}/{id}`, 'get', await as(`/api/v1/${name}/${created[name]!.id}`));
  });

  it('for a create, and a create refused per field', async () => {
    const create = (json: Record<string, unknown>) => call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: company.authorization, json });
    const made = await create({ target_url: 'https://hooks.example.com/made', event: 'new_call' });
    expect(made.status).toBe(200);
    expectDocumented('/api/v1/subscriptions', 'post', made);
    const refused = await create({ target_url: 'not a url', event: 'new_call' });
    expect(refused.status).toBe(422);
    expectDocumented('/api/v1/subscriptions', 'post', refused);
  });

  it('for missing credentials and an unknown record', async () => {
    const anonymous = await call(gateway, { path: '/api/v1/offers' });
    expect(anonymous.status).toBe(401);
    expectDocumented('/api/v1/offers', 'get', anonymous);
    const missing = await call(gateway, { path: '/api/v1/offers/999999', authorization: company.authorization });
    expect(missing.status).toBe(404);
    expectDocumented('/api/v1/offers/{id}', 'get', missing);
  });
});
