import { CALL_WRITABLE_FIELDS } from '../calls/call-writable-fields.js';
import { routes } from '../http/routes.js';
import { COMMON_COLUMNS } from '../resources/define.js';
import { views } from '../resources/view-registry.js';
import { PERMISSION_ACTIONS } from './permissions.js';

/**
 * What a team's `permissions` may name, read from the declarations: the permission groups are
 * those the route table's routes declare (a new route's group becomes grantable with it), and the
 * fields a group's writes may be limited to are its writable fields: a call's changeable fields,
 * or a registry resource's columns (less the common ones and `company_id`). Only those groups
 * check fields on write (the resource engine and the call updates), so only they take `fields`.
 */
export const PERMISSION_GROUPS: readonly string[] = [
  ...new Set(routes.flatMap((route) => (route.auth === 'basic' && route.permission !== 'company' ? [route.permission.group] : []))),
].sort();

const NOT_WRITABLE = new Set<string>([...COMMON_COLUMNS, 'company_id']);

/** The fields a group's writes may be limited to; undefined when the group's writes do not check fields. */
export function writableFieldsOf(group: string): readonly string[] | undefined {
  if (group === 'calls') return CALL_WRITABLE_FIELDS;
  const view = views.find((candidate) => candidate.name === group);
  return view?.columns.filter((column) => !NOT_WRITABLE.has(column));
}

/**
 * Problems of a team's `permissions` value (`{group: {actions: [...], fields: [...]}}`), each a
 * message naming the group; empty when it is valid. Pure.
 */
export function permissionProblems(value: unknown): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return ['is not a hash of permission groups'];
  const problems: string[] = [];
  const groups = new Set(PERMISSION_GROUPS);
  for (const [group, permission] of Object.entries(value as Record<string, unknown>)) {
    if (!groups.has(group)) {
      problems.push(`${group} is not a permission group`);
      continue;
    }
    if (!permission || typeof permission !== 'object' || Array.isArray(permission)) {
      problems.push(`${group} is not a hash with actions and fields`);
      continue;
    }
    const { actions, fields, ...rest } = permission as Record<string, unknown>;
    for (const key of Object.keys(rest)) problems.push(`${group}.${key} is not a permission setting (actions, fields)`);
    if (!Array.isArray(actions) || actions.some((action) => !(PERMISSION_ACTIONS as readonly unknown[]).includes(action))) {
      problems.push(`${group}.actions must be a list of ${PERMISSION_ACTIONS.join(', ')}`);
    }
    if (fields === undefined) continue;
    const writable = writableFieldsOf(group);
    if (!writable) problems.push(`${group} does not limit fields`);
    else if (!Array.isArray(fields)) problems.push(`${group}.fields must be a list of fields`);
    else {
      const unknown = fields.filter((field) => typeof field !== 'string' || !writable.includes(field));
      if (unknown.length) problems.push(`${group}.fields: ${unknown.map(String).join(', ')} ${unknown.length === 1 ? 'is not a writable field' : 'are not writable fields'}`);
    }
  }
  return problems;
}

/** A valid `permissions` value as stored: actions in their usual order and fields once each. Pure. */
export function normalizedPermissions(value: Record<string, { actions: readonly string[]; fields?: readonly string[] }>): Record<string, { actions: string[]; fields?: string[] }> {
  return Object.fromEntries(
    Object.entries(value).map(([group, permission]) => [
      group,
      { actions: PERMISSION_ACTIONS.filter((action) => permission.actions.includes(action)), ...(permission.fields ? { fields: [...new Set(permission.fields)] } : {}) },
    ]),
  );
}
