import { ForbiddenError, HttpError, NotFoundError } from '../http/errors.js';
import { CAP_FIELDS } from '../buyers/buyer-caps.js';
import { missingPermission, type Access, type BuyerTeam, type Grant, type PermissionAction, type RoutePermission } from './permissions.js';

/**
 * The one decision every basic-auth route goes through (shared/http/middleware/authenticate.ts):
 * from the route's declared permission and the caller's access, the grant the operation works
 * within, or the refusal. Pure.
 */

/** What a buyer team member may do to a group, on the routes that open it to buyer teams. */
interface BuyerTeamRight {
  actions: readonly PermissionAction[];
  /** The records of the group a team member sees. */
  sees: (record: Record<string, unknown>, teams: readonly BuyerTeam[]) => boolean;
  seesAttributes: readonly string[];
  /** The fields a team member may write on a record they see. */
  fields: (record: Record<string, unknown> | undefined, teams: readonly BuyerTeam[]) => readonly string[];
}

/** A call the buyer was dialed for: connected to it, or one of its attempts rang the buyer. */
function dialed(call: Record<string, unknown>, buyerId: number): boolean {
  if (call.buyer_id === buyerId) return true;
  return Array.isArray(call.attempts) && call.attempts.some((attempt) => (attempt as { buyer_id?: unknown } | null)?.buyer_id === buyerId);
}

/** The buyer team's calls: dialed for the buyer, on one of the buyer's team offers. */
export function teamSeesCall(call: Record<string, unknown>, teams: readonly BuyerTeam[]): boolean {
  return teams.some((team) => typeof call.offer_id === 'number' && team.offerIds.includes(call.offer_id) && dialed(call, team.buyerId));
}

/** Buyer teams' rights, per permission group: their own buyer (pause, and caps when allowed) and its calls (conversions). */
export const BUYER_TEAM_RIGHTS: Readonly<Record<string, BuyerTeamRight>> = {
  buyers: {
    actions: ['list', 'show', 'update'],
    sees: (buyer, teams) => teams.some((team) => team.buyerId === buyer.id),
    seesAttributes: ['id'],
    fields: (buyer, teams) => (teams.some((team) => team.buyerId === buyer?.id && team.editCaps) ? ['paused', ...CAP_FIELDS] : ['paused']),
  },
  calls: {
    actions: ['list', 'show', 'update'],
    sees: teamSeesCall,
    seesAttributes: ['offer_id', 'buyer_id', 'attempts'],
    fields: () => ['buyer_converted', 'revenue'],
  },
};

/** Whether the caller's access comes from buyer teams only (no team grants anything). */
function buyerTeamOnly(access: Access & { kind: 'member' }): boolean {
  return access.buyerTeams.length > 0 && Object.values(access.permissions).every((permission) => permission.actions.length === 0);
}

/**
 * The grant for one request, or the refusal: 403 with `errors.base` naming the missing permission;
 * 404 for a buyer team member (with no team permissions) on a path no route opens to buyer teams,
 * as if it did not exist. `pathOpenToBuyerTeams`: some method of this path is open to them.
 */
export function authorize(permission: RoutePermission, access: Access, pathOpenToBuyerTeams: boolean): Grant {
  if (access.kind === 'admin' || permission === 'company') return {};
  const { group, action } = permission;
  const own = access.permissions[group];
  if (own?.actions.includes(action)) {
    const fields = own.fields;
    return fields ? { fields: () => fields } : {};
  }
  const right = BUYER_TEAM_RIGHTS[group];
  if (permission.buyerTeam && right?.actions.includes(action) && access.buyerTeams.length) {
    const teams = access.buyerTeams;
    return { sees: (record) => right.sees(record, teams), seesAttributes: right.seesAttributes, fields: (record) => right.fields(record, teams) };
  }
  if (buyerTeamOnly(access) && !pathOpenToBuyerTeams) throw new NotFoundError();
  throw new ForbiddenError(missingPermission(group, action));
}

/**
 * Refuses a write that sets a field the grant does not allow (403 naming the first one). `group`
 * and `action` name the permission in the message.
 */
export function assertFieldsGranted(grant: Grant | undefined, record: Record<string, unknown> | undefined, sent: readonly string[], group: string, action: PermissionAction): void {
  const allowed = grant?.fields?.(record);
  if (!allowed) return;
  const refused = sent.find((field) => !allowed.includes(field));
  if (refused !== undefined) throw new HttpError(403, missingPermission(group, action, refused), { base: [missingPermission(group, action, refused)], [refused]: ['may not be changed with these credentials'] });
}

/** A record the grant does not let the caller see is a 404, like another company's. */
export function assertSees(grant: Grant | undefined, record: Record<string, unknown>): void {
  if (grant?.sees && !grant.sees(record)) throw new NotFoundError();
}
