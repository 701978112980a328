import type { TransactItem } from '../db/client.js';
import { rollupCellUpdate } from '../db/rollup-update.js';
import { keys } from '../db/keys.js';
import { queryPages } from '../db/query.js';
import { leadRollupChanges, rangeMonths, type LeadFigures, type LeadReportCategory, type LeadRollupItem } from './lead-rollups.js';

/** The rollup updates (atomic ADDs) of a lead going from `before` to `after`, for its change's transaction. */
export function leadRollupWrites(companyId: number, before: LeadFigures | undefined, after: LeadFigures | undefined): TransactItem[] {
  return leadRollupChanges(before, after).map(({ cell, delta }) =>
    rollupCellUpdate(keys.leadRollup(companyId, cell.month, cell.category, cell.value, cell.day, cell.hour), delta, { month: cell.month, day: cell.day, hour: cell.hour, category: cell.category, value: cell.value }),
  );
}

/**
 * The rollup cells of a category (or of one value of it) in the UTC months a range touches: one
 * Query per month, never the leads. Callers keep the cells whose hour is in range.
 */
export async function queryLeadRollups(companyId: number, category: LeadReportCategory, fromMs: number, toMs: number, value?: string): Promise<LeadRollupItem[]> {
  const prefix = value === undefined ? `${category}#` : `${category}#${value}#`;
  const months = rangeMonths(fromMs, toMs);
  const batches = await Promise.all(
    months.map(async (month) => {
      const items: LeadRollupItem[] = [];
      for await (const page of queryPages({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.leadRollups(companyId, month), ':prefix': prefix },
      })) {
        for (const item of page) items.push(item as unknown as LeadRollupItem);
      }
      return items;
    }),
  );
  return batches.flat();
}
