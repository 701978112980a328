import * as v from 'valibot';
import { addFieldError, ValidationError, type FieldErrors } from './errors.js';

const OBJECT_TYPES = new Set(['object', 'strict_object', 'loose_object']);

/** One message per valibot issue; missing and unknown keys get their own wording. */
function messageOf(issue: v.BaseIssue<unknown>): string {
  if (issue.kind === 'schema' && OBJECT_TYPES.has(issue.type)) {
    if (issue.received === 'undefined') return 'is required';
    if (issue.expected === 'never') return 'is not an allowed key';
  }
  return issue.message;
}

/** Groups issues by dotted field path (`trigger_fields.offer_id`); issues without a path go to `base`. */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path?.map((item) => String(item.key)).join('.') || 'base';
    const message = messageOf(issue);
    addFieldError(errors, field, message);
  }
  return errors;
}

/** Validates every field at once and throws a 422 naming each failing field. */
export function validate<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (!result.success) throw new ValidationError(fieldErrors(result.issues));
  return result.output;
}
