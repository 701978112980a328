import { HttpError } from '../../shared/http/errors.js';
import type { Operation, OperationRequest } from '../../shared/http/request.js';
import { CORS_HEADERS } from '../../shared/routing/inbound.js';

/**
 * Answers of the routes authorised by a lead token (submission, the caller operations, leads by
 * caller number): landing-page forms and links call them straight from browsers and read
 * `success`, so every answer carries it (`success: false` with `status` and `errors` on a
 * refusal) and allows any origin, like the ping and post answers.
 */
export function leadTokenOperation(run: (request: OperationRequest) => Promise<Record<string, unknown>>): Operation {
  return async (request) => {
    try {
      const body = await run(request);
      return { kind: 'raw', response: tokenResponse(200, { success: true, ...body }) };
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode >= 500) throw error;
      const { status, errors } = error.toJSON();
      return { kind: 'raw', response: tokenResponse(status, { success: false, status, errors }) };
    }
  };
}

function tokenResponse(statusCode: number, body: Record<string, unknown>) {
  return { statusCode, headers: { 'content-type': 'application/json; charset=utf-8', ...CORS_HEADERS }, body: JSON.stringify(body) };
}
