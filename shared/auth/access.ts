import { findUserToken, type UserTokenItem } from '../db/companies.js';
import { queryRecordPage } from '../db/records.js';
import { ADMIN, unionOf, type Access, type BuyerTeam, type Permissions } from './permissions.js';
import { plausibleUserToken } from './credentials.js';

/**
 * What a user may do, read when their auth_token authorises a request. Admins (and users stored
 * before members existed, whose token item has no `admin` attribute) cost no read; a member costs
 * two parallel Queries of small configuration partitions (teams and buyers), projected to the
 * attributes that decide.
 */

/** Users stored before members existed carry no `admin` attribute: they keep every right. */
export function isAdminUser(user: Pick<UserTokenItem, 'admin'>): boolean {
  return user.admin !== false;
}

/** A team's stored `permissions` (validated on write: shared/auth/permission-catalog.ts); anything else reads as none. */
function storedPermissions(value: unknown): Permissions {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Permissions) : {};
}

const listsEmail = (list: unknown, email: string): boolean => Array.isArray(list) && list.some((entry) => typeof entry === 'string' && entry.toLowerCase() === email);

/** The member's teams' permissions (their union) and the buyers whose teams list them. */
export async function memberAccess(companyId: number, userId: number, email: string): Promise<Access> {
  const wanted = email.toLowerCase();
  const [teams, buyers] = await Promise.all([
    queryRecordPage({ companyId, resource: 'access_control_lists', direction: 'asc', limit: Number.MAX_SAFE_INTEGER, attributes: ['users_emails', 'permissions'] }),
    queryRecordPage({ companyId, resource: 'buyers', direction: 'asc', limit: Number.MAX_SAFE_INTEGER, attributes: ['generate_team', 'team_users_emails', 'team_offer_ids', 'team_edit_caps'] }),
  ]);
  const permissions = unionOf(teams.records.filter((team) => listsEmail(team.users_emails, wanted)).map((team) => storedPermissions(team.permissions)));
  const buyerTeams: BuyerTeam[] = buyers.records
    .filter((buyer) => buyer.generate_team === true && listsEmail(buyer.team_users_emails, wanted))
    .map((buyer) => ({
      buyerId: buyer.id,
      offerIds: Array.isArray(buyer.team_offer_ids) ? buyer.team_offer_ids.filter((id): id is number => typeof id === 'number') : [],
      editCaps: buyer.team_edit_caps === true,
    }));
  return { kind: 'member', userId, email: wanted, permissions, buyerTeams };
}

/** The access of a stored user token. */
export async function accessOfUser(user: UserTokenItem): Promise<Access> {
  if (isAdminUser(user)) return ADMIN;
  return memberAccess(Number(user.company_id), Number(user.user_id), String(user.email ?? ''));
}

/** The user an `auth_token` parameter names, with their access; undefined when it names none. */
export async function userOfToken(token: unknown): Promise<{ user: UserTokenItem; access: Access } | undefined> {
  if (!plausibleUserToken(token)) return undefined;
  const user = await findUserToken(token);
  return user ? { user, access: await accessOfUser(user) } : undefined;
}
