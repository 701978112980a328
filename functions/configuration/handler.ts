import { serveAudio } from '../../shared/call-config/sounds.js';
import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { groupOperations } from '../../shared/resources/engine.js';
import { offerAmdFlows } from '../../shared/resources/offer-amd-flows.js';
import { soundFiles, soundPlaylists } from '../../shared/resources/sound-files.js';

/** The call engine's configuration resources (docs/call-configuration.md). */
export const handler = createRouteGroupHandler('configuration', {
  ...groupOperations('configuration', [soundFiles, soundPlaylists, offerAmdFlows]),
  'sound_files.audio': serveAudio,
});
