import { needs } from '../../auth/permissions.js';
import { API, type RouteDefinition, resourceRoutes } from '../route-definition.js';
import { configurationRoutings } from '../../resources/routing/configuration.js';

/** The configuration function's routes: its resources', then a ring pool's visitor number and sound files' audio. */
export const configurationRoutes: readonly RouteDefinition[] = [
  ...configurationRoutings.flatMap(resourceRoutes),
  // Dynamic number insertion: a ring pool number for a landing-page visitor (docs/call-configuration.md).
  { method: 'POST', path: `${API}/ring_pools/{id}/visitor_number`, group: 'configuration', auth: 'basic', operation: 'ring_pools.visitorNumber', permission: needs('ring_pools', 'update') },
  // A sound file's audio for the carrier, authorised by the file's playback token in the path.
  { method: 'GET', path: `${API}/sound_files/audio/{token}`, group: 'configuration', auth: 'none', operation: 'sound_files.audio' },
];
