/**
 * Audio for the carrier to play (router prompts, whispers, hold queues): a sound file or a
 * playlist of them. Implemented with the sound_files / sound_playlists resources.
 */
export interface SoundReference {
  sound_file_id?: number | null;
  sound_playlist_id?: number | null;
}

/**
 * URLs the carrier can fetch and play, in order; [] when the reference names nothing playable
 * (callers then fall back to spoken text).
 */
export async function playbackUrls(_companyId: number, _ref: SoundReference, _at: Date): Promise<string[]> {
  return [];
}
