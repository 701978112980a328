import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName, type TransactItem } from '../db/client.js';
import { keys } from '../db/keys.js';
import type { BidsByBuyer } from '../bidding/bid-ranking.js';

/**
 * A tracking number held for one caller after a post: a call from that caller to that number
 * before `reserved_until` is routed to the buyers the ping found. A lead's number
 * (`assign_service_number`) names no buyers: its call is routed through the offer as usual and
 * belongs to the lead. Keyed by number and caller, so
 * one number serves many callers at once and reservations never contend.
 */
export interface NumberReservation {
  number: string;
  caller: string;
  buyer_ids: number[];
  tokens: Record<string, unknown>;
  /** The ping it came from; null for a lead's number (assign_service_number). */
  ping_id: string | null;
  inbound_webhook_id: number | null;
  /** Set when a lead submission holds the number: the call belongs to that lead. */
  lead_id?: number;
  offer_id: number | null;
  traffic_source_id: number | null;
  reserved_until: string;
  /** Bids of bidding buyers the ping found (docs/rtb.md): the call is dialed to them while they are live, without asking again. */
  rtb_bids?: BidsByBuyer;
}

/** The Put of a reservation (also written in a lead submission's transaction). */
export function reservationPut(companyId: number, reservation: NumberReservation) {
  return {
    TableName: tableName,
    Item: {
      ...keys.numberReservation(companyId, reservation.number, reservation.caller),
      ...reservation,
      // Kept a day past the window for call analysis, then removed by TTL.
      expires_at: Math.floor(Date.parse(reservation.reserved_until) / 1000) + 86400,
    },
  };
}

/**
 * Holds the number for the caller. `alongside` (the post's log entry) is written in the same
 * transaction, so a post that fails holds no number.
 */
export async function reserveNumber(companyId: number, reservation: NumberReservation, alongside: readonly TransactItem[] = []): Promise<void> {
  const put = reservationPut(companyId, reservation);
  if (alongside.length === 0) await db.send(new PutCommand(put));
  else await db.send(new TransactWriteCommand({ TransactItems: [{ Put: put }, ...alongside] }));
}

/** The caller's live reservation of this number, if any (one GetItem). */
export async function findReservation(companyId: number, number: string, caller: string, now: Date): Promise<NumberReservation | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.numberReservation(companyId, number, caller) }));
  return liveReservation(result.Item, now);
}

/** A reservation item as read (by findReservation or with a call's other keyed reads), if still live at `now`. Pure. */
export function liveReservation(item: Record<string, unknown> | undefined, now: Date): NumberReservation | undefined {
  const reservation = item as NumberReservation | undefined;
  return reservation && Date.parse(reservation.reserved_until) > now.getTime() ? reservation : undefined;
}
