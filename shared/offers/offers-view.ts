import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/offers.js';

/** How the resources of offers-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const offersView = defineView({
  name: routing.offers.name,
  type: 'Offer',
  columns: ['company_id', 'name', 'context_menu_name', 'description', 'time_zone', 'lead_token', 'offer_token', 'buyer_ids', 'buyer_group_ids', 'whisper_sound_file_id', 'hold_sound_playlist_id'],
  foreignKeys: {
    buyer_ids: { resource: 'buyers' },
    buyer_group_ids: { resource: 'buyer_groups' },
    whisper_sound_file_id: { resource: 'sound_files' },
    hold_sound_playlist_id: { resource: 'sound_playlists' },
  },
  derive: (record) => ({ context_menu_name: record.name ?? null }),
});

export const trafficSourcesView = defineView({
  name: routing.trafficSources.name,
  type: 'TrafficSource',
  columns: ['company_id', 'name', 'context_menu_name', 'description', 'time_zone', 'user_traffic_source_id', 'first_name', 'last_name', 'company_name', 'email'],
  derive: (record) => ({ context_menu_name: record.name ?? null }),
});
