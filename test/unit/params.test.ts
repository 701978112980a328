import { beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { BadRequestError } from '../../shared/http/errors.js';
import { loadQueryParser, mergeParams, parseBody, parseQuery } from '../../shared/http/params.js';
import { booleanParam, decimalParam, httpUrlParam, idParam, parseBooleanWord } from '../../shared/http/param-schemas.js';

describe('parseBooleanWord', () => {
  it.each(['1', 'true', 'yes', 'on', true, 1])('reads %s as true', (word) => {
    expect(parseBooleanWord(word)).toBe(true);
  });
  it.each(['0', 'false', 'no', 'off', false, 0])('reads %s as false', (word) => {
    expect(parseBooleanWord(word)).toBe(false);
  });
  it.each(['TRUE', 'y', 'n', '2', '', ' true', null, 2, {}])('rejects %s', (word) => {
    expect(parseBooleanWord(word)).toBeUndefined();
    expect(v.safeParse(booleanParam, word).success).toBe(false);
  });
});

describe('number and URL schemas', () => {
  it('accepts ids as numbers or digit strings', () => {
    expect(v.parse(idParam, '42')).toBe(42);
    expect(v.parse(idParam, 7)).toBe(7);
    expect(v.safeParse(idParam, '4.2').success).toBe(false);
    expect(v.safeParse(idParam, '0').success).toBe(false);
    expect(v.safeParse(idParam, 'abc').success).toBe(false);
  });
  it('accepts decimals as numbers or numeric strings', () => {
    expect(v.parse(decimalParam, '12.50')).toBe(12.5);
    expect(v.parse(decimalParam, -3)).toBe(-3);
    expect(v.safeParse(decimalParam, '1e5x').success).toBe(false);
  });
  it('accepts only absolute http(s) URLs', () => {
    expect(v.parse(httpUrlParam, ' https://example.com/hook ')).toBe('https://example.com/hook');
    for (const bad of ['ftp://example.com', 'example.com', 'http://', 'javascript:alert(1)']) {
      expect(v.safeParse(httpUrlParam, bad).success).toBe(false);
    }
  });
});

describe('parseQuery and parseBody', () => {
  // The API functions' Middy stack loads qs before reading a request (shared/http/handler.ts).
  beforeAll(loadQueryParser);

  it('reads bracket arrays and hashes from query strings', () => {
    expect(parseQuery('ids[]=1&ids[]=2&trigger_fields[offer_id]=3&page=2')).toEqual({
      ids: ['1', '2'],
      trigger_fields: { offer_id: '3' },
      page: '2',
    });
  });
  it('reads JSON and form bodies, and JSON labelled as a form', () => {
    expect(parseBody('{"a":1}', 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(parseBody('a=1&b[c]=2', 'application/x-www-form-urlencoded')).toEqual({ a: '1', b: { c: '2' } });
    expect(parseBody('{"a":1}', 'application/x-www-form-urlencoded')).toEqual({ a: 1 });
    expect(parseBody('', 'application/json')).toEqual({});
  });
  it('rejects malformed JSON and non-object JSON with a 400', () => {
    expect(() => parseBody('{"a":', 'application/json')).toThrow(BadRequestError);
    expect(() => parseBody('[1,2]', 'application/json')).toThrow(BadRequestError);
  });
  it('rejects a content type it cannot read', () => {
    expect(() => parseBody('<x/>', 'application/xml')).toThrow(BadRequestError);
  });
  it('lets the body win over the query string', () => {
    expect(mergeParams({ a: 'query', b: 'query' }, { a: 'body' })).toEqual({ a: 'body', b: 'query' });
  });
});
