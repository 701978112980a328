import type { DataProviderPort } from '../ports/data-provider.js';
import { localAdapters } from './local-registry.js';

/** The setting that chooses the data provider; named in the 422 a data append gets without one. */
export const DATA_PROVIDER_SETTING = 'DATA_PROVIDER';

/**
 * DATA_PROVIDER: `local` (deterministic data per number: tests and `npm start`) or unset (no
 * provider: data appends are refused with a 422 naming the setting). A commercial provider's
 * adapter is added here as another value. Undefined for an unset or unknown value.
 */
export function createDataProvider(env: NodeJS.ProcessEnv = process.env): DataProviderPort | undefined {
  const configured = env[DATA_PROVIDER_SETTING];
  if (configured === 'local') return new (localAdapters(DATA_PROVIDER_SETTING).DeterministicDataProvider)();
  return undefined;
}

/** Why no lookup can be made, or undefined when a provider is configured. */
export function missingDataProvider(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env[DATA_PROVIDER_SETTING];
  if (!configured) return `no data provider is configured: set ${DATA_PROVIDER_SETTING}`;
  if (configured !== 'local') return `${DATA_PROVIDER_SETTING} names an unknown data provider (${configured.slice(0, 40)}): use local`;
  return undefined;
}
