import { describe, expect, it } from 'vitest';
import {
  explainMismatch,
  formatTokenFilter,
  matchesFilter,
  matchesFilters,
  parseTokenFilter,
  parseTokenFilterList,
  parseTokenList,
  type TokenFilter,
  type TokenValues,
} from '../../shared/routing/token-filters.js';

/** Parses a filter that the test expects to be valid. */
function filter(text: string): TokenFilter {
  const result = parseTokenFilter(text);
  if (!result.ok) throw new Error(`expected ${text} to parse: ${result.error}`);
  return result.filter;
}

/** Parses a list that the test expects to be valid. */
function filters(...texts: string[]): TokenFilter[] {
  return texts.map(filter);
}

function matches(text: string, tokens: TokenValues): boolean {
  return matchesFilters([filter(text)], tokens);
}

describe('parseTokenFilter', () => {
  it.each([
    ['state:CA', { key: 'state', operator: 'eq', value: 'CA' }],
    ['age:>=21', { key: 'age', operator: 'gte', value: '21' }],
    ['age:<=65', { key: 'age', operator: 'lte', value: '65' }],
    ['state:!=NY', { key: 'state', operator: 'ne', value: 'NY' }],
    ['  age :  >=  21 ', { key: 'age', operator: 'gte', value: '21' }],
    ['state:CA | NY', { key: 'state', operator: 'eq', value: 'CA|NY' }],
    ['state:!= CA|NY', { key: 'state', operator: 'ne', value: 'CA|NY' }],
    ['time:>=10:30', { key: 'time', operator: 'gte', value: '10:30' }],
    ['url:https://x.test/a', { key: 'url', operator: 'eq', value: 'https://x.test/a' }],
    ['utm.source-2_x:Google Ads', { key: 'utm.source-2_x', operator: 'eq', value: 'Google Ads' }],
  ])('parses %j', (text, expected) => {
    expect(parseTokenFilter(text)).toEqual({ ok: true, filter: expected });
  });

  it.each([
    ['', 'is empty'],
    ['   ', 'is empty'],
    ['nokey', 'is missing a ":"'],
    [':value', 'is missing a key'],
    ['  :value', 'is missing a key'],
    ['key:', 'is missing a value'],
    ['key:   ', 'is missing a value'],
    ['key:>=', 'is missing a value after ">="'],
    ['key:<=', 'is missing a value after "<="'],
    ['key:!=', 'is missing a value after "!="'],
    ['key:>=  ', 'is missing a value after ">="'],
    ['bad key:1', 'has an invalid key "bad key"'],
    ['st@te:CA', 'has an invalid key "st@te"'],
    ['age:>21', 'unsupported operator'],
    ['age:<21', 'unsupported operator'],
    ['state:=CA', 'unsupported operator'],
    ['age:>==21', 'unsupported operator'],
    ['state:!CA', 'unsupported operator'],
    ['state:CA|!=NY', 'unsupported operator'],
    ['state:CA|', 'empty alternative'],
    ['state:!=|NY', 'empty alternative'],
    ['state:CA||NY', 'empty alternative'],
  ])('rejects %j', (text, message) => {
    const result = parseTokenFilter(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain(message);
    expect(result.error.startsWith(JSON.stringify(text))).toBe(true);
  });

  it('keeps "|" literal for gte and lte', () => {
    expect(filter('age:>=1|2')).toEqual({ key: 'age', operator: 'gte', value: '1|2' });
  });
});

describe('formatTokenFilter', () => {
  it('writes the canonical form of each operator', () => {
    expect(formatTokenFilter({ key: 'state', operator: 'eq', value: 'CA' })).toBe('state:CA');
    expect(formatTokenFilter({ key: 'age', operator: 'gte', value: '21' })).toBe('age:>=21');
    expect(formatTokenFilter({ key: 'age', operator: 'lte', value: '65' })).toBe('age:<=65');
    expect(formatTokenFilter({ key: 'state', operator: 'ne', value: 'NY' })).toBe('state:!=NY');
  });

  it.each([
    'state:CA',
    ' age : >= 21 ',
    'age:<=65',
    'state:!= NY',
    'state: CA | NY ',
    'time:>=10:30',
    'date:<=2024-06-30T12:00:00Z',
    'note:hello world',
  ])('round-trips %j (parse, format, parse)', (text) => {
    const first = filter(text);
    const formatted = formatTokenFilter(first);
    expect(formatted).not.toMatch(/^\s|\s$/);
    const second = parseTokenFilter(formatted);
    expect(second).toEqual({ ok: true, filter: first });
    if (second.ok) expect(formatTokenFilter(second.filter)).toBe(formatted);
  });

  it('normalises spacing', () => {
    expect(formatTokenFilter(filter(' age : >=  21 '))).toBe('age:>=21');
    expect(formatTokenFilter(filter('state: CA | NY '))).toBe('state:CA|NY');
  });
});

describe('parseTokenFilterList', () => {
  const expected = [
    { key: 'state', operator: 'eq', value: 'CA' },
    { key: 'age', operator: 'gte', value: '21' },
  ];

  it('accepts an array of strings', () => {
    expect(parseTokenFilterList(['state:CA', 'age:>=21'])).toEqual({ ok: true, filters: expected });
  });

  it('treats each array element as one filter, so values may contain commas', () => {
    expect(parseTokenFilterList(['city:Portland, OR'])).toEqual({
      ok: true,
      filters: [{ key: 'city', operator: 'eq', value: 'Portland, OR' }],
    });
  });

  it('accepts a JSON array string', () => {
    expect(parseTokenFilterList('["state:CA","age:>=21"]')).toEqual({ ok: true, filters: expected });
    expect(parseTokenFilterList('  [ "state:CA" , "age:>=21" ]  ')).toEqual({ ok: true, filters: expected });
  });

  it('accepts a comma-separated string', () => {
    expect(parseTokenFilterList('state:CA, age:>=21')).toEqual({ ok: true, filters: expected });
  });

  it('accepts a newline-separated string (and mixed separators, skipping blank segments)', () => {
    expect(parseTokenFilterList('state:CA\nage:>=21')).toEqual({ ok: true, filters: expected });
    expect(parseTokenFilterList('state:CA\r\n\r\nage:>=21\n')).toEqual({ ok: true, filters: expected });
    expect(parseTokenFilterList('state:CA,\nage:>=21,')).toEqual({ ok: true, filters: expected });
  });

  it.each([null, undefined, '', '   ', [], '[]'])('reads %j as the empty list', (input) => {
    expect(parseTokenFilterList(input)).toEqual({ ok: true, filters: [] });
  });

  it('reports every bad entry with its position', () => {
    const result = parseTokenFilterList('state:CA, x, :1, age:>=, bad key:2');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(4);
    expect(result.errors[0]).toBe('entry 2 ("x") is missing a ":" between key and value (expected key:value)');
    expect(result.errors[1]).toBe('entry 3 (":1") is missing a key');
    expect(result.errors[2]).toBe('entry 4 ("age:>=") is missing a value after ">="');
    expect(result.errors[3]).toMatch(/^entry 5 \("bad key:2"\) has an invalid key "bad key"/);
  });

  it('reports non-string array elements', () => {
    const result = parseTokenFilterList(['state:CA', 42, null, { a: 1 }, 'key:']);
    expect(result).toEqual({
      ok: false,
      errors: [
        'entry 2 is not a string (got number)',
        'entry 3 is not a string (got null)',
        'entry 4 is not a string (got object)',
      ],
    });
  });

  it('reports non-string elements of a JSON array string', () => {
    expect(parseTokenFilterList('["state:CA", 7]')).toEqual({ ok: false, errors: ['entry 2 is not a string (got number)'] });
  });

  it('reports blank array elements', () => {
    expect(parseTokenFilterList(['state:CA', '  '])).toEqual({ ok: false, errors: ['entry 2 ("") is empty'] });
  });

  it('rejects invalid JSON that looks like an array', () => {
    const result = parseTokenFilterList('["state:CA"');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toContain('not valid JSON');
    expect(parseTokenFilterList('[state:CA]').ok).toBe(false);
  });

  it.each([42, true, { state: 'CA' }])('rejects %j as not a list', (input) => {
    const result = parseTokenFilterList(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toEqual(['must be a list of filters (an array of strings or a comma-separated string)']);
  });
});

describe('matching: eq', () => {
  it('matches a present, equal token', () => {
    expect(matches('state:CA', { state: 'CA' })).toBe(true);
    expect(matches('state:CA', { state: 'NY' })).toBe(false);
  });

  it('does not match an absent, null or blank token', () => {
    expect(matches('state:CA', {})).toBe(false);
    expect(matches('state:CA', { state: null })).toBe(false);
    expect(matches('state:CA', { state: undefined })).toBe(false);
    expect(matches('state:CA', { state: '   ' })).toBe(false);
  });

  it('compares values trimmed and ignoring case', () => {
    expect(matches('state:CA', { state: ' ca ' })).toBe(true);
    expect(matches('source:Google Ads', { source: 'GOOGLE ADS' })).toBe(true);
  });

  it('looks keys up ignoring case, preferring an exact-case key', () => {
    expect(matches('State:CA', { state: 'CA' })).toBe(true);
    expect(matches('state:CA', { STATE: 'CA' })).toBe(true);
    expect(matches('state:CA', { STATE: 'NY', state: 'CA' })).toBe(true);
    expect(matches('STATE:CA', { STATE: 'NY', state: 'CA' })).toBe(false);
  });

  it('stringifies number and boolean tokens', () => {
    expect(matches('age:42', { age: 42 })).toBe(true);
    expect(matches('opt_in:true', { opt_in: true })).toBe(true);
    expect(matches('opt_in:true', { opt_in: false })).toBe(false);
  });

  it('compares text, not numbers', () => {
    expect(matches('age:21', { age: '21.0' })).toBe(false);
  });

  it('supports any-of with "|"', () => {
    const f = 'state:CA|NY|tx';
    expect(matches(f, { state: 'CA' })).toBe(true);
    expect(matches(f, { state: 'ny' })).toBe(true);
    expect(matches(f, { state: 'TX' })).toBe(true);
    expect(matches(f, { state: 'FL' })).toBe(false);
    expect(matches(f, {})).toBe(false);
  });

  it('does not read inherited properties as tokens', () => {
    expect(matchesFilter(filter('constructor:x'), {})).toBe(false);
    expect(matchesFilter(filter('toString:!=x'), {})).toBe(true);
  });
});

describe('matching: ne', () => {
  it('matches a different value and rejects an equal one (ignoring case)', () => {
    expect(matches('state:!=NY', { state: 'CA' })).toBe(true);
    expect(matches('state:!=NY', { state: 'NY' })).toBe(false);
    expect(matches('state:!=NY', { state: ' ny ' })).toBe(false);
  });

  it('matches an absent token', () => {
    expect(matches('state:!=NY', {})).toBe(true);
    expect(matches('state:!=NY', { state: null })).toBe(true);
  });

  it('with "|" matches none of the alternatives', () => {
    const f = 'state:!=NY|NJ';
    expect(matches(f, { state: 'CA' })).toBe(true);
    expect(matches(f, { state: 'NY' })).toBe(false);
    expect(matches(f, { state: 'nj' })).toBe(false);
    expect(matches(f, {})).toBe(true);
  });
});

describe('matching: gte and lte', () => {
  it('compares numbers numerically', () => {
    expect(matches('age:>=21', { age: '21' })).toBe(true);
    expect(matches('age:>=21', { age: '42' })).toBe(true);
    expect(matches('age:>=21', { age: '20' })).toBe(false);
    expect(matches('age:>=9', { age: '10' })).toBe(true); // "10" < "9" as text
    expect(matches('age:<=9', { age: '10' })).toBe(false);
    expect(matches('age:<=65', { age: 65 })).toBe(true);
    expect(matches('age:<=65', { age: '65.5' })).toBe(false);
    expect(matches('score:>=-1.5', { score: ' -1 ' })).toBe(true);
    expect(matches('amount:>=1e3', { amount: '1000' })).toBe(true);
    expect(matches('age:>=21', { age: '21.0' })).toBe(true);
  });

  it('does not match when either side is not a number (and not both dates)', () => {
    expect(matches('age:>=21', { age: 'old' })).toBe(false);
    expect(matches('age:<=21', { age: 'old' })).toBe(false);
    expect(matches('name:>=abc', { name: 'xyz' })).toBe(false);
    expect(matches('age:>=21', { age: '0x20' })).toBe(false);
    expect(matches('age:>=21', { age: 'Infinity' })).toBe(false);
    expect(matches('age:<=21', { age: '' })).toBe(false);
    expect(matches('age:>=1|2', { age: '5' })).toBe(false);
  });

  it('does not match an absent token', () => {
    expect(matches('age:>=21', {})).toBe(false);
    expect(matches('age:<=21', {})).toBe(false);
    expect(matches('age:<=21', { age: null })).toBe(false);
  });

  it('compares ISO dates as strings', () => {
    expect(matches('date:>=2024-01-01', { date: '2024-06-30' })).toBe(true);
    expect(matches('date:>=2024-01-01', { date: '2023-12-31' })).toBe(false);
    expect(matches('date:<=2024-01-01', { date: '2023-12-31T23:59:59Z' })).toBe(true);
    expect(matches('at:<=2024-01-01T10:00:00Z', { at: '2024-01-01t09:00:00z' })).toBe(true);
    expect(matches('date:>=2024-01-01', { date: '20240601' })).toBe(false);
  });

  it('applies two filters on the same key (a range)', () => {
    const range = filters('age:>=21', 'age:<=65');
    expect(matchesFilters(range, { age: '21' })).toBe(true);
    expect(matchesFilters(range, { age: '40' })).toBe(true);
    expect(matchesFilters(range, { age: '65' })).toBe(true);
    expect(matchesFilters(range, { age: '20' })).toBe(false);
    expect(matchesFilters(range, { age: '66' })).toBe(false);
    expect(matchesFilters(range, {})).toBe(false);
  });
});

describe('matchesFilters', () => {
  it('matches everything with an empty list', () => {
    expect(matchesFilters([], {})).toBe(true);
    expect(matchesFilters([], { state: 'CA' })).toBe(true);
  });

  it('requires all filters to hold', () => {
    const list = filters('state:CA|NY', 'age:>=21', 'zip:!=90210');
    expect(matchesFilters(list, { state: 'CA', age: '42', zip: '10001' })).toBe(true);
    expect(matchesFilters(list, { state: 'CA', age: '42', zip: '90210' })).toBe(false);
    expect(matchesFilters(list, { state: 'TX', age: '42', zip: '10001' })).toBe(false);
    expect(matchesFilters(list, { state: 'NY', age: '18' })).toBe(false);
  });

  it('works on a list parsed from a string', () => {
    const parsed = parseTokenFilterList('state:CA, age:>=21');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(matchesFilters(parsed.filters, { state: 'ca', age: 30 })).toBe(true);
    expect(matchesFilters(parsed.filters, { state: 'ca', age: 20 })).toBe(false);
  });
});

describe('explainMismatch', () => {
  const list = filters(' state : CA | NY ', 'age:>=21', 'age:<=65', 'zip:!=90210');

  it('is undefined when every filter holds', () => {
    expect(explainMismatch(list, { state: 'NY', age: '30', zip: '10001' })).toBeUndefined();
    expect(explainMismatch([], {})).toBeUndefined();
  });

  it('names the first failing filter in canonical form', () => {
    expect(explainMismatch(list, { state: 'TX', age: '10', zip: '90210' })).toBe('state:CA|NY');
    expect(explainMismatch(list, { state: 'CA', age: '10' })).toBe('age:>=21');
    expect(explainMismatch(list, { state: 'CA', age: '70' })).toBe('age:<=65');
    expect(explainMismatch(list, { state: 'CA', age: '30', zip: '90210' })).toBe('zip:!=90210');
  });
});

describe('parseTokenList', () => {
  it('parses a comma-separated string', () => {
    expect(parseTokenList('source:google, campaign: spring sale ,ref:https://x.test/a')).toEqual({
      ok: true,
      tokens: { source: 'google', campaign: 'spring sale', ref: 'https://x.test/a' },
    });
  });

  it('parses an array of strings, a JSON array string and a newline-separated string', () => {
    const tokens = { source: 'google', tier: 'gold' };
    expect(parseTokenList(['source:google', 'tier:gold'])).toEqual({ ok: true, tokens });
    expect(parseTokenList('["source:google","tier:gold"]')).toEqual({ ok: true, tokens });
    expect(parseTokenList('source:google\ntier:gold\n')).toEqual({ ok: true, tokens });
  });

  it.each([null, undefined, '', '  '])('reads %j as no tokens', (input) => {
    expect(parseTokenList(input)).toEqual({ ok: true, tokens: {} });
  });

  it('keeps "|" and other characters literal', () => {
    expect(parseTokenList('states:CA|NY')).toEqual({ ok: true, tokens: { states: 'CA|NY' } });
  });

  it('rejects operators', () => {
    expect(parseTokenList('source:google, age:>=21, state:!=NY, max:<=5')).toEqual({
      ok: false,
      errors: [
        'entry 2 ("age:>=21") has an operator (">="), which is not allowed in a token list (use key:value)',
        'entry 3 ("state:!=NY") has an operator ("!="), which is not allowed in a token list (use key:value)',
        'entry 4 ("max:<=5") has an operator ("<="), which is not allowed in a token list (use key:value)',
      ],
    });
  });

  it('reports malformed entries', () => {
    const result = parseTokenList('nokey, :v, k:, bad key:1');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(4);
    expect(result.errors[0]).toContain('entry 1 ("nokey") is missing a ":"');
    expect(result.errors[1]).toBe('entry 2 (":v") is missing a key');
    expect(result.errors[2]).toBe('entry 3 ("k:") is missing a value');
    expect(result.errors[3]).toContain('entry 4 ("bad key:1") has an invalid key');
  });

  it('rejects a key given twice (ignoring case)', () => {
    expect(parseTokenList('tier:gold, Tier:silver')).toEqual({
      ok: false,
      errors: ['entry 2 ("Tier:silver") repeats the key "Tier"'],
    });
  });

  it('rejects non-string input and elements', () => {
    expect(parseTokenList(5).ok).toBe(false);
    expect(parseTokenList(['a:1', 2])).toEqual({ ok: false, errors: ['entry 2 is not a string (got number)'] });
  });

  it('keeps a __proto__ key as an ordinary token', () => {
    const result = parseTokenList('__proto__:x');
    expect(result.ok).toBe(true);
    if (result.ok) expect(Object.hasOwn(result.tokens, '__proto__')).toBe(true);
  });
});

describe('token filters: documented edge cases', () => {
  const holds = (text: string, tokens: TokenValues) => {
    const parsed = parseTokenFilter(text);
    if (!parsed.ok) throw new Error(parsed.error);
    return matchesFilter(parsed.filter, tokens);
  };

  it.each([
    ['1.25', '>=1.2', true],
    ['1.', '>=1', true],
    ['.55', '>=0.5', true],
    ['.55', '<=0.5', false],
    ['1e10', '>=1e9', true],
    ['1e+5', '>=99999', true],
    ['2E-3', '<=0.01', true],
  ])('compares %j numerically against %j', (value, filter, expected) => {
    expect(holds(`n:${filter}`, { n: value })).toBe(expected);
  });

  it('compares ISO dates as text, ignoring the case of T and Z', () => {
    expect(holds('d:>=2024-03-01', { d: '2024-02-29' })).toBe(false);
    expect(holds('d:<=2024-03-01', { d: '2024-02-29' })).toBe(true);
    expect(holds('d:>=2024-03-01', { d: '2024-03-02' })).toBe(true);
    expect(holds('d:<=2024-03-01', { d: '2024-03-02' })).toBe(false);
    expect(holds('d:>=2024-03-01', { d: '2024-03-01' })).toBe(true);
    expect(holds('d:<=2024-03-01', { d: '2024-03-01' })).toBe(true);
    expect(holds('d:>=2024-03-01T10:00Z', { d: '2024-03-01t10:00z' })).toBe(true);
    expect(holds('d:<=2024-03-01T10:00Z', { d: '2024-03-01t10:00z' })).toBe(true);
  });

  it('does not order a number against a date, or text that only contains a date', () => {
    expect(holds('d:>=2024-03-01', { d: '5' })).toBe(false);
    expect(holds('d:<=2024-03-01', { d: '5' })).toBe(false);
    expect(holds('d:<=2024-03-01', { d: 'x2024-02-01' })).toBe(false);
    expect(holds('d:>=2024-03-01', { d: 'x2024-02-01' })).toBe(false);
    expect(holds('d:<=2024-03-01', { d: '2024-02-1' })).toBe(false);
  });

  it('finds a key ignoring case, and reads null tokens as absent', () => {
    expect(holds('state:CA', { other: 'x', State: 'CA' })).toBe(true);
    expect(holds('state:null', { state: null })).toBe(false);
    expect(holds('state:!=null', { state: null })).toBe(true);
    expect(holds('state:undefined', { state: undefined })).toBe(false);
  });

  it('accepts comparison characters inside a value, only refusing them at its start', () => {
    expect(parseTokenFilter('query:a=b')).toMatchObject({ ok: true, filter: { key: 'query', operator: 'eq', value: 'a=b' } });
  });

  it('skips blank segments of a comma-separated list', () => {
    const parsed = parseTokenFilterList('state:CA, ,age:>=21');
    expect(parsed.ok && parsed.filters.map(formatTokenFilter)).toEqual(['state:CA', 'age:>=21']);
  });

  it('names the type of a non-string entry, and what a token list must be', () => {
    expect(parseTokenFilterList([['state:CA']])).toEqual({ ok: false, errors: ['entry 1 is not a string (got array)'] });
    const tokens = parseTokenList(5);
    expect(tokens.ok === false && tokens.errors[0]).toContain('must be a list of tokens');
  });
});
