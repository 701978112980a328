import { parseTokenList } from '../routing/token-filters.js';

/**
 * Text matching and templating shared by SIP header parsers, token matchers and SIP headers:
 * exact / prefix / regex matches with regexes that are bounded (pattern length, input length,
 * no constructs that backtrack without bound), and `{{token}}` templates. Pure.
 */

export const MATCH_TYPES = ['exact', 'prefix', 'regex'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/** Longest pattern accepted, and the most characters of a subject a pattern is run against. */
export const PATTERN_LIMITS = { patternLength: 200, subjectLength: 256 } as const;

/**
 * Constructs refused in patterns: back-references and lookarounds (not needed to pick a value
 * out of a header), and a quantified group that itself contains a quantifier (`(a+)+`,
 * `(\d*)*`, `(a|aa){2,}`), the classic catastrophic-backtracking shapes.
 */
const BACKREFERENCE = /\\[1-9]|\\k</;
const LOOKAROUND = /\(\?<?[=!]/;
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,?\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,?\d*\})/;
const QUANTIFIED_ALTERNATION = /\((?:[^()\\]|\\.)*\|(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,\d*\})/;

/** Why `pattern` is not accepted, or undefined when it is a safe, valid regex. */
export function patternProblem(pattern: string): string | undefined {
  if (pattern.length > PATTERN_LIMITS.patternLength) return `is longer than ${PATTERN_LIMITS.patternLength} characters`;
  if (BACKREFERENCE.test(pattern) || LOOKAROUND.test(pattern)) return 'may not use back-references or lookarounds';
  if (NESTED_QUANTIFIER.test(pattern) || QUANTIFIED_ALTERNATION.test(pattern)) return 'may not repeat a group that repeats (nested quantifiers)';
  try {
    new RegExp(pattern);
  } catch {
    return 'is not a valid regular expression';
  }
  return undefined;
}

/** The subject as far as patterns see it. */
export function boundSubject(subject: string): string {
  return subject.slice(0, PATTERN_LIMITS.subjectLength);
}

/** Does `subject` match `value` under `type`? An unsafe or invalid regex matches nothing. */
export function textMatches(type: MatchType, value: string, subject: string | null | undefined): boolean {
  if (subject === null || subject === undefined) return false;
  switch (type) {
    case 'exact':
      return subject === value;
    case 'prefix':
      return subject.startsWith(value);
    case 'regex':
      if (patternProblem(value)) return false;
      return new RegExp(value).test(boundSubject(subject));
  }
}

/**
 * The value a parser takes from a header: the first capture group of `pattern` (else the whole
 * match), or the whole header without a pattern; undefined when the pattern does not match.
 */
export function captureValue(pattern: string | null | undefined, header: string): string | undefined {
  if (!pattern) return header;
  if (patternProblem(pattern)) return undefined;
  const match = new RegExp(pattern).exec(boundSubject(header));
  if (!match) return undefined;
  return match[1] ?? match[0];
}

/** `{{ name }}` placeholders: token names as the token lists allow them. */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.-]{1,100})\s*\}\}/g;

/** Fills `{{name}}` placeholders from `values` (missing ones become ''), bounded to `max` characters. */
export function renderTemplate(template: string, values: Readonly<Record<string, unknown>>, max: number): string {
  const filled = template.replace(PLACEHOLDER, (_whole, name: string) => {
    const value = values[name];
    return value === null || value === undefined || typeof value === 'object' ? '' : String(value);
  });
  return filled.slice(0, max);
}

/** A stored `key:value,key:value` token list (as tokenListParam stores it) as a hash; {} when unusable. */
export function tokenListValues(list: unknown): Record<string, string> {
  const parsed = parseTokenList(list);
  return parsed.ok ? parsed.tokens : {};
}
