import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { ValidationError } from '../../shared/http/errors.js';
import { blankable, idParam, oneOf } from '../../shared/http/param-schemas.js';
import { validate } from '../../shared/http/validation.js';

const schema = v.object({
  name: v.string('is not a string'),
  kind: v.optional(oneOf(['a', 'b'])),
  nested: v.optional(v.strictObject({ id: v.optional(idParam) }, 'is not a hash')),
  note: v.optional(blankable(v.string('is not a string'))),
});

function errorsOf(input: unknown): Record<string, string[]> {
  try {
    validate(schema, input);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors;
  }
  throw new Error('expected a validation error');
}

describe('validate', () => {
  it('returns the parsed output when valid', () => {
    expect(validate(schema, { name: 'x', nested: { id: '5' }, note: '' })).toEqual({ name: 'x', nested: { id: 5 }, note: null });
  });

  it('reports every failing field at once, keyed by dotted path', () => {
    expect(errorsOf({ kind: 'c', nested: { id: 'x', other: 1 } })).toEqual({
      name: ['is required'],
      kind: ['is not included in the list (a, b)'],
      'nested.id': ['is not an integer'],
      'nested.other': ['is not an allowed key'],
    });
  });

  it('keeps the value schema message for a blankable field that is neither blank nor valid', () => {
    expect(errorsOf({ name: 'x', note: 5 })).toEqual({ note: ['is not a string'] });
  });
});
