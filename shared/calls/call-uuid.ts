import { randomInt } from 'node:crypto';

/**
 * A call's uuid names its company and id (an RFC 9562 version 8 UUID: 14 hex digits each, then
 * 2 random ones), so a call found by uuid (`/calls/{uuid}`, the secure endpoints) is read by key
 * and the call needs no uuid lookup item: one item fewer in the transaction that creates it (2
 * write units). The uuid is no secret: the secure endpoints are authorised by the call's secure
 * token, the others by the company's key. Calls made before carry a random (version 4) uuid and
 * its lookup item. Pure.
 */

const HEX_DIGITS = 14;
/** The largest id the layout holds (16^14 > 2^53: every safe integer). */
const LIMIT = 16 ** HEX_DIGITS;
const LAYOUT = /^([0-9a-f]{8})-([0-9a-f]{4})-8([0-9a-f]{3})-8([0-9a-f]{3})-([0-9a-f]{12})$/;

const hex = (value: number) => value.toString(16).padStart(HEX_DIGITS, '0');

/** The uuid of call `callId` of company `companyId`. */
export function callUuid(companyId: number, callId: number, random: number = randomInt(256)): string {
  if (!Number.isSafeInteger(companyId) || !Number.isSafeInteger(callId) || companyId < 0 || callId < 0) throw new RangeError('call uuid of a non-integer id');
  const digits = `${hex(companyId)}${hex(callId)}${(random & 0xff).toString(16).padStart(2, '0')}`;
  return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-8${digits.slice(12, 15)}-8${digits.slice(15, 18)}-${digits.slice(18, 30)}`;
}

/** The company and call a uuid made by callUuid names; undefined for any other uuid (a random one: look it up). */
export function callOfUuid(uuid: string): { companyId: number; callId: number } | undefined {
  const parts = LAYOUT.exec(uuid.toLowerCase());
  if (!parts) return undefined;
  const digits = parts.slice(1).join('');
  const companyId = Number.parseInt(digits.slice(0, HEX_DIGITS), 16);
  const callId = Number.parseInt(digits.slice(HEX_DIGITS, 2 * HEX_DIGITS), 16);
  return Number.isSafeInteger(companyId) && Number.isSafeInteger(callId) && companyId < LIMIT && callId < LIMIT ? { companyId, callId } : undefined;
}
