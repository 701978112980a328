/**
 * `trigger_fields` of a subscription: the event fires only when the object matches every given
 * field (Events rule 2). Ids compare as integers, flags as booleans; `either_converted` is true
 * when the buyer or the offer converted. A field the object does not have does not match. Pure.
 */
const FLAG_FIELDS = new Set(['buyer_converted', 'offer_converted', 'has_recording']);

function fieldValue(object: Record<string, unknown>, field: string): unknown {
  if (field === 'either_converted') return object.buyer_converted === true || object.offer_converted === true;
  if (FLAG_FIELDS.has(field)) return object[field] === true;
  const value = object[field];
  return typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

export function matchesTriggerFields(triggerFields: unknown, object: Record<string, unknown>): boolean {
  if (!triggerFields || typeof triggerFields !== 'object' || Array.isArray(triggerFields)) return true;
  return Object.entries(triggerFields as Record<string, unknown>).every(([field, wanted]) => {
    if (wanted === null || wanted === undefined) return true;
    return fieldValue(object, field) === wanted;
  });
}
