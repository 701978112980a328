import type { HiddenRecords } from './define.js';

/**
 * Which records a list keeps, from the list parameters. Pure: the engine applies the predicate
 * while it reads, so a filtered page stops reading once it has its records.
 */
export interface ListConditions {
  /** Resource filters: the stored attribute must equal the value. */
  equals: Record<string, unknown>;
  createdFrom?: Date;
  createdTo?: Date;
  fulltext?: string;
  fulltextFields: readonly string[];
  /**
   * The resource's computed columns (ResourceView.derive): a fulltext field the record does not
   * store (an integration's `name`, "Crm one", from its type) is searched as it is shown.
   */
  derive?: (record: Row) => Row;
}

type Row = Record<string, unknown>;

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The stored attributes the predicate of these conditions reads (what a projected read must fetch). */
export function conditionAttributes(conditions: ListConditions): string[] {
  const attributes = new Set<string>(Object.keys(conditions.equals));
  if (conditions.createdFrom !== undefined || conditions.createdTo !== undefined) attributes.add('created_at');
  if (conditions.fulltext?.trim()) for (const field of ['id', ...conditions.fulltextFields]) attributes.add(field);
  return [...attributes];
}

/** The predicate for these conditions, or undefined when every record qualifies. */
export function recordPredicate(conditions: ListConditions): ((record: Row) => boolean) | undefined {
  const tests: Array<(record: Row) => boolean> = [];
  for (const [attribute, value] of Object.entries(conditions.equals)) {
    tests.push((record) => record[attribute] === value || (record[attribute] ?? null) === value);
  }
  const from = conditions.createdFrom?.getTime();
  const to = conditions.createdTo?.getTime();
  if (from !== undefined || to !== undefined) {
    tests.push((record) => {
      const created = Date.parse(String(record.created_at));
      return (from === undefined || created >= from) && (to === undefined || created <= to);
    });
  }
  const needle = conditions.fulltext?.trim().toLowerCase();
  if (needle) {
    const fields = ['id', ...conditions.fulltextFields];
    const { derive } = conditions;
    tests.push((record) => {
      const shown = derive && fields.some((field) => record[field] === undefined) ? { ...derive(record), ...record } : record;
      return fields.some((field) => text(shown[field]).toLowerCase().includes(needle));
    });
  }
  if (tests.length === 0) return undefined;
  return (record) => tests.every((test) => test(record));
}

/** A predicate with a resource's hidden records (ResourceView.hiddenRecords) left out; undefined when every record qualifies. */
export function withoutHidden(accept: ((record: Row) => boolean) | undefined, hidden: HiddenRecords | undefined): ((record: Row) => boolean) | undefined {
  if (!hidden) return accept;
  return (record) => !hidden.hides(record) && (!accept || accept(record));
}
