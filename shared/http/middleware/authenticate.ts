import type { MiddlewareObj } from '@middy/core';
import { accessOfUser } from '../../auth/access.js';
import { authorize } from '../../auth/authorize.js';
import { parseBasicAuthorization, plausibleUserToken, secretMatches } from '../../auth/credentials.js';
import { ADMIN } from '../../auth/permissions.js';
import { findApiKey, findUserToken } from '../../db/companies.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { INPUT_LIMITS } from '../input-limits.js';
import { pathWithoutJsonSuffix } from '../format-suffix.js';
import { parseQuery } from '../params.js';
import type { ApiEvent, ApiResponse, AppContext, AuthContext, Params } from '../request.js';
import type { RouteDefinition } from '../route-definition.js';
import { rawBodyOf, requestParams } from './parse-params.js';

/**
 * The `auth_token` parameter, read before the body is parsed in full: from the query string,
 * or from a body small enough to be a form that carries it. A larger body without an
 * `Authorization` header is refused unread.
 */
function presentedAuthToken(event: ApiEvent): unknown {
  const fromQuery = parseQuery(event.rawQueryString).auth_token;
  if (fromQuery !== undefined) return fromQuery;
  const body = rawBodyOf(event);
  if (!body || Buffer.byteLength(body, 'utf8') > INPUT_LIMITS.unauthenticatedBodyBytes) return undefined;
  try {
    return requestParams(event).auth_token;
  } catch {
    return undefined;
  }
}

/**
 * Resolves the calling company from Basic credentials or a per-user `auth_token`. Every failure
 * is the same 401, so a caller cannot tell an unknown public key from a wrong private key; an
 * `Authorization` header that is present but malformed is a 401 too, never a fall-through to
 * `auth_token`.
 */
async function authenticateBasic(event: ApiEvent): Promise<AuthContext> {
  const authorization = event.headers?.authorization;
  if (authorization !== undefined) {
    const pair = parseBasicAuthorization(authorization);
    const key = pair ? await findApiKey(pair.publicKey) : undefined;
    if (pair && key && secretMatches(pair.privateKey, key.secret_hash)) {
      return { companyId: Number(key.company_id), publicKey: pair.publicKey, method: 'api_key', access: ADMIN };
    }
    throw new UnauthorizedError();
  }
  const authToken = presentedAuthToken(event);
  if (plausibleUserToken(authToken)) {
    const user = await findUserToken(authToken);
    if (user) return { companyId: Number(user.company_id), userId: Number(user.user_id), method: 'auth_token', access: await accessOfUser(user) };
  }
  throw new UnauthorizedError();
}

/**
 * Checks a carrier request's signature (shared/voice/carrier-auth.ts). Given by the groups that
 * have carrier routes (createRouteGroupHandler's `carrierSignature`), so the other functions do
 * not bundle the carrier's token handling.
 */
export type CarrierSignatureCheck = (event: ApiEvent, params: Params) => Promise<boolean>;

/**
 * Authenticates the request as its route's `auth` says, and on basic routes authorises it: the
 * route's declared permission against the credential's access (shared/auth/authorize.ts), once for
 * every route of the service. The grant rides on the auth context for the shared layers that scope
 * records and fields (the resource engine, the calls' reads). `groupRoutes`: the function's routes,
 * to tell a path open to buyer teams (403 for another method) from one that is not (404).
 */
export function authenticate(groupRoutes: readonly RouteDefinition[], carrierSignature?: CarrierSignatureCheck): MiddlewareObj<ApiEvent, ApiResponse, Error, AppContext> {
  // By path without `.json`: a route and its twin are one path (shared/http/format-suffix.ts).
  const buyerTeamPaths = new Set(groupRoutes.filter((route) => route.auth === 'basic' && route.permission !== 'company' && route.permission.buyerTeam).map((route) => pathWithoutJsonSuffix(route.path)));
  return {
    before: async (request) => {
      const { route } = request.context;
      if (!route) throw new Error('authenticate needs resolveRoute before it');
      switch (route.auth) {
        case 'basic': {
          const auth = await authenticateBasic(request.event);
          auth.grant = authorize(route.permission, auth.access ?? ADMIN, buyerTeamPaths.has(pathWithoutJsonSuffix(route.path)));
          request.context.auth = auth;
          return;
        }
        case 'none':
          request.context.auth = { companyId: 0, method: 'none' };
          return;
        case 'carrier':
          // The carrier's calls are signed with its auth token over the URL and form fields (a small form).
          // createRouteGroupHandler refuses a group with carrier routes and no check.
          if (!carrierSignature) throw new Error('a carrier route needs the group to check carrier signatures');
          request.context.params = requestParams(request.event);
          if (!(await carrierSignature(request.event, request.context.params))) throw new ForbiddenError('Invalid carrier signature');
          request.context.auth = { companyId: 0, method: 'none' };
          return;
        default:
          // Token-authorised kinds resolve their company inside the operation, from the token.
          request.context.auth = { companyId: 0, method: 'none' };
      }
    },
  };
}
