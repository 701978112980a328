/**
 * What a credential may do (docs/permissions.md). Pure: the route table declares what each route
 * needs (`RoutePermission`), shared/auth/access.ts reads what a user has, and `authorize` decides.
 *
 * - Key pairs and admin users: everything.
 * - Members: the union of the `permissions` of the teams (access_control_lists) that list their
 *   e-mail: per permission group, the actions allowed and, optionally, the only fields they may write.
 * - Buyer team members (a buyer's `team_users_emails` with `generate_team` on): their own buyer and the
 *   calls it was dialed for on its `team_offer_ids`, through the routes that say so (`buyerTeam`).
 */

/** The actions a team grants per group. */
export const PERMISSION_ACTIONS = ['list', 'show', 'create', 'update', 'delete'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

/**
 * What a route needs, declared with the route (shared/http/routes/<group>.ts): a permission group
 * (a registry resource's name, or the name of a hand-written group such as `calls`) and an action.
 * `buyerTeam`: buyer team members may use it too, on their own records (the operation applies
 * the grant's `sees`). `'company'`: any credential of the company (reference data no team owns).
 */
export type RoutePermission = { group: string; action: PermissionAction; buyerTeam?: boolean } | 'company';

/** One line of the route table: `permission: needs('calls', 'update')`. */
export function needs(group: string, action: PermissionAction, options: { buyerTeam?: boolean } = {}): RoutePermission {
  return { group, action, ...(options.buyerTeam ? { buyerTeam: true } : {}) };
}

/** A team's grant on one group: the actions, and (when given) the only fields a write may set. */
export interface GroupPermission {
  actions: readonly PermissionAction[];
  fields?: readonly string[];
}

export type Permissions = Readonly<Record<string, GroupPermission>>;

/** A buyer whose team the user is in. */
export interface BuyerTeam {
  buyerId: number;
  offerIds: readonly number[];
  /** The company lets the team change the buyer's caps (the buyer's `team_edit_caps`). */
  editCaps: boolean;
}

/** Who the caller is, as far as permissions go. */
export type Access =
  | { kind: 'admin' }
  | { kind: 'member'; userId: number; email: string; permissions: Permissions; buyerTeams: readonly BuyerTeam[] };

export const ADMIN: Access = { kind: 'admin' };

/**
 * What a request may reach, decided once by `authorize` and applied by the shared layers: `sees`
 * hides records (404, left out of lists and their counts); `fields` limits what a write may set
 * (undefined: any field). Absent on a grant: no limit.
 */
export interface Grant {
  sees?: (record: Record<string, unknown>) => boolean;
  /** Attributes `sees` reads (for lists that read projected records first). */
  seesAttributes?: readonly string[];
  fields?: (record: Record<string, unknown> | undefined) => readonly string[] | undefined;
}

/** The union of several teams' permissions: every action and field any of them allows. */
export function unionOf(teams: readonly Permissions[]): Record<string, GroupPermission> {
  const out: Record<string, { actions: Set<PermissionAction>; fields: Set<string> | undefined }> = {};
  for (const team of teams) {
    for (const [group, permission] of Object.entries(team)) {
      const entry = (out[group] ??= { actions: new Set(), fields: new Set() });
      for (const action of permission.actions ?? []) entry.actions.add(action);
      // A team that does not limit fields allows them all, whatever the others say.
      if (!permission.fields) entry.fields = undefined;
      else if (entry.fields) for (const field of permission.fields) entry.fields.add(field);
    }
  }
  return Object.fromEntries(
    Object.entries(out).map(([group, entry]) => [group, { actions: PERMISSION_ACTIONS.filter((action) => entry.actions.has(action)), ...(entry.fields ? { fields: [...entry.fields] } : {}) }]),
  );
}

/** Whether a member's teams allow `action` on `group` (admins: always). */
export function teamsAllow(access: Access, group: string, action: PermissionAction): boolean {
  return access.kind === 'admin' || (access.permissions[group]?.actions.includes(action) ?? false);
}

/**
 * Whether a user may use an offer (an inbound webhook's, with `require_user_auth_token`): admins;
 * members whose teams may show offers; buyer team members whose buyer's team offers include it.
 */
export function mayUseOffer(access: Access, offerId: number | undefined): boolean {
  if (teamsAllow(access, 'offers', 'show')) return true;
  return access.kind === 'member' && offerId !== undefined && access.buyerTeams.some((team) => team.offerIds.includes(offerId));
}

/** The missing permission, as `errors.base` names it. */
export function missingPermission(group: string, action: PermissionAction, field?: string): string {
  return field ? `needs the ${group} ${action} permission for the field ${field}` : `needs the ${group} ${action} permission`;
}
