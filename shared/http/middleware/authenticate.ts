import type { MiddlewareObj } from '@middy/core';
import { parseBasicAuthorization, secretMatches } from '../../auth/credentials.js';
import { findApiKey, findUserToken } from '../../db/companies.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { validCarrierSignature } from '../../voice/carrier-auth.js';
import type { ApiEvent, ApiResponse, AppContext, AuthContext } from '../request.js';

/**
 * Resolves the calling company from Basic credentials or a per-user `auth_token`. Every failure
 * is the same 401, so a caller cannot tell an unknown public key from a wrong private key.
 */
async function authenticateBasic(authorization: string | undefined, authToken: unknown): Promise<AuthContext> {
  const pair = parseBasicAuthorization(authorization);
  if (pair) {
    const key = await findApiKey(pair.publicKey);
    if (key && secretMatches(pair.privateKey, key.secret_hash)) {
      return { companyId: Number(key.company_id), method: 'api_key' };
    }
    throw new UnauthorizedError();
  }
  if (typeof authToken === 'string' && authToken.length > 0) {
    const user = await findUserToken(authToken);
    if (user) return { companyId: Number(user.company_id), userId: Number(user.user_id), method: 'auth_token' };
  }
  throw new UnauthorizedError();
}

export function authenticate(): MiddlewareObj<ApiEvent, ApiResponse, Error, AppContext> {
  return {
    before: async (request) => {
      const { route, params } = request.context;
      if (!route) throw new Error('authenticate needs resolveRoute before it');
      switch (route.auth) {
        case 'basic':
          request.context.auth = await authenticateBasic(request.event.headers?.authorization, params?.auth_token);
          return;
        case 'none':
          request.context.auth = { companyId: 0, method: 'none' };
          return;
        case 'carrier':
          // The carrier's calls are signed with its auth token over the URL and form fields.
          if (!validCarrierSignature(request.event, params ?? {})) throw new ForbiddenError('Invalid carrier signature');
          request.context.auth = { companyId: 0, method: 'none' };
          return;
        default:
          // Token-authorised kinds resolve their company inside the operation, from the token.
          request.context.auth = { companyId: 0, method: 'none' };
      }
    },
  };
}
