import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of sound-files-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const soundFilesView = defineView({
  name: routing.soundFiles.name,
  type: 'SoundFile',
  columns: ['company_id', 'name', 'description', 'content_type', 'size_bytes', 'duration_seconds', 'storage_key'],
});

export const soundPlaylistsView = defineView({
  name: routing.soundPlaylists.name,
  type: 'SoundPlaylist',
  columns: ['company_id', 'name', 'description', 'sound_file_ids', 'loop'],
  foreignKeys: { sound_file_ids: { resource: 'sound_files' } },
});
