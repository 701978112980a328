/**
 * Where admin table exports are stored in the object storage (the uploads bucket in AWS): one
 * prefix, so the admin function's role reaches these objects and nothing else beside them.
 * A module of its own: the CDK stack reads it without loading the export code.
 */
export const EXPORT_KEY_PREFIX = 'exports/';

/** The key of one export file: company, exporter and part number, so a re-run replaces the same file. */
export function exportFileKey(companyId: number, exporterId: number, part: number): string {
  return `${EXPORT_KEY_PREFIX}${companyId}/${exporterId}/part-${String(part).padStart(5, '0')}.csv`;
}
