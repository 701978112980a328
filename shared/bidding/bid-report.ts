import type { BidFigures } from './bid-log.js';

/**
 * The reports by buyer with the bidding figures beside the call figures (docs/rtb.md,
 * "Reports"): pings (asks sent), bids (asks that brought a standing bid), wins (calls first dialed
 * to the buyer's bid) and win rate (wins / bids, 0 without bids). A buyer asked but never sent a
 * call gets a row of its own. Pure.
 */
export const BID_REPORT_FIELDS = ['pings', 'bids', 'wins', 'win_rate'] as const;

export function withBidFigures<T extends { value: string }>(rows: readonly T[], figures: ReadonlyMap<number, BidFigures>, emptyRow: (value: string) => T): Array<T & Record<(typeof BID_REPORT_FIELDS)[number], number>> {
  const figured = (row: T) => {
    const found = figures.get(Number(row.value)) ?? { pings: 0, bids: 0, wins: 0 };
    return { ...row, ...found, win_rate: found.bids ? Math.round((found.wins / found.bids) * 10_000) / 10_000 : 0 };
  };
  const present = new Set(rows.map((row) => row.value));
  const extra = [...figures.keys()].filter((id) => !present.has(String(id))).sort((a, b) => a - b).map((id) => emptyRow(String(id)));
  return [...rows, ...extra].map(figured);
}
