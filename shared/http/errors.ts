/**
 * HTTP errors as classes carrying their status and per-field messages; the error handler turns
 * them into the response envelope. Only errors below 500 expose their message to the client.
 */
export type FieldErrors = Record<string, string[]>;

/**
 * Adds a message to a field's list, once. Field names come from requests, so an inherited name
 * (`toString`, `hasOwnProperty`) must not be mistaken for an existing list.
 */
export function addFieldError(errors: FieldErrors, field: string, message: string, max = Number.POSITIVE_INFINITY): void {
  const list = Object.hasOwn(errors, field) ? errors[field]! : (errors[field] = []);
  if (!list.includes(message) && list.length < max) list.push(message);
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors: FieldErrors = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toJSON(): { status: number; errors: FieldErrors } {
    return { status: this.statusCode, errors: Object.keys(this.errors).length ? this.errors : { base: [this.message] } };
  }
}

export class BadRequestError extends HttpError {
  constructor(message: string, errors: FieldErrors = {}) {
    super(400, message, errors);
  }
}

export class UnauthorizedError extends HttpError {
  constructor(message = 'Missing or invalid credentials') {
    super(401, message);
  }
}

export class ForbiddenError extends HttpError {
  constructor(message = 'Not allowed') {
    super(403, message);
  }
}

/** Also used for another company's records: their existence is never revealed. */
export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}

export class ConflictError extends HttpError {
  constructor(field: string, message = 'has already been taken') {
    super(409, `${field} ${message}`, { [field]: [message] });
  }
}

export class ValidationError extends HttpError {
  constructor(errors: FieldErrors) {
    super(422, 'Validation failed', errors);
  }
}
