/**
 * The import rules of shared/, functions/ and infra/ (docs/architecture.md explains the layers).
 * test/unit/dependency-rules.test.ts runs them with dependency-cruiser's API on every `npm test`:
 * any `error` below fails it. Type imports count (tsPreCompilationDeps), since a circle of types
 * is a circle a reader has to untangle all the same.
 */

/** The domain folders: each holds its resources' declarations and views beside their behaviour and stores. */
const DOMAINS = ['admin', 'agents', 'bidding', 'buyers', 'call-config', 'calls', 'contact-fields', 'contact-imports', 'contacts', 'data-appends', 'events', 'integrations', 'leads', 'messaging', 'numbers', 'offers', 'reporting', 'routing', 'secrets'];
const domain = `^shared/(${DOMAINS.join('|')})/`;

/**
 * Upward imports kept for now, each named (from -> to) with why; no other is allowed, and the
 * list only shrinks. Empty today: keep the mechanism for a move that cannot be made at once.
 */
const knownUpwardImports = [];

module.exports = {
  DOMAINS,
  knownUpwardImports,
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles, type imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-imports-no-entry-points',
      severity: 'error',
      comment: 'shared/ is what functions/ and infra/ are built from; it never imports them. shared/local is the local runtime (npm start runs the functions\' handlers), an entry point like them.',
      from: { path: '^shared/', pathNot: '^shared/local/' },
      to: { path: '^(functions|infra)/' },
    },
    {
      name: 'domains-import-no-entry-points',
      severity: 'error',
      comment: 'A domain is called by the functions and the local runtime, never the other way.',
      from: { path: domain },
      to: { path: '^(functions/|infra/|shared/(local|smoke|console)/)' },
    },
    {
      name: 'common-modules-import-no-domain',
      severity: 'error',
      comment: 'The modules at the root of shared/ (config, logger, phone, time), observability and the guarded outbound HTTP sender are below every domain.',
      from: { path: '^shared/([^/]+\\.ts$|observability/|outbound/)' },
      to: { path: domain },
    },
    {
      name: 'db-and-adapters-import-no-domain',
      severity: 'error',
      comment: 'The table access, the ports and the AWS/local adapters are below every domain.',
      from: { path: '^shared/(db|adapters|ports)/', ...(knownUpwardImports.length ? { pathNot: knownUpwardImports.map((allowed) => allowed.from) } : {}) },
      to: { path: domain },
    },
    // The modules of knownUpwardImports: the same rule, but for the one import each keeps.
    ...knownUpwardImports.map((allowed) => ({
      name: 'db-and-adapters-import-no-domain',
      severity: 'error',
      from: { path: allowed.from },
      to: { path: domain, pathNot: allowed.to },
    })),
    {
      name: 'generic-http-imports-no-domain',
      severity: 'error',
      comment: 'The generic HTTP layer reaches domains only through the route table (routes.ts, routes/) and the OpenAPI document built from it.',
      from: { path: '^shared/http/', pathNot: '^shared/http/(routes\\.ts|routes/|openapi/)' },
      to: { path: domain },
    },
    {
      name: 'resource-engine-imports-no-domain',
      severity: 'error',
      comment: 'shared/resources/ is the generic engine; only the registries (registry.ts, view-registry.ts, and routing.ts with routing/, the routing facts the route table reads) know the domains. The transactional outbox (events/outbox.ts) is generic too: the engine stages any domain\'s messages in it.',
      from: { path: '^shared/resources/', pathNot: '^shared/resources/(registry\\.ts|view-registry\\.ts|routing\\.ts|routing/)' },
      to: { path: domain, pathNot: '^shared/events/outbox\\.ts$' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
  },
};
