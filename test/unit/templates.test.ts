import { describe, expect, it } from 'vitest';
import { MAX_TEMPLATE_OUTPUT_BYTES, renderTemplate, templateTokens, TemplateTooLargeError } from '../../shared/events/templates.js';

// Contract (shared/events/templates.ts): `{{ name }}` is replaced by the token's value, escaped
// for the mode; missing and null tokens are '', objects JSON; other `{{...}}` text stays; output
// over MAX_TEMPLATE_OUTPUT_BYTES throws instead of being cut.

describe('renderTemplate', () => {
  it('replaces placeholders, with or without whitespace inside the braces', () => {
    expect(renderTemplate('Hi {{first_name}} {{ last_name }}{{\tage\n}}!', { first_name: 'Ann', last_name: 'Lee', age: 40 }, 'text')).toBe('Hi Ann Lee40!');
  });

  it('accepts letters, digits, _, . and - in names', () => {
    expect(renderTemplate('{{a-b.c_1}}', { 'a-b.c_1': 'x' }, 'text')).toBe('x');
  });

  it('renders missing, undefined and null tokens as empty text', () => {
    expect(renderTemplate('[{{gone}}|{{nothing}}|{{nil}}]', { nothing: undefined, nil: null }, 'text')).toBe('[||]');
  });

  it('renders numbers and booleans as text, objects and arrays as JSON text', () => {
    expect(renderTemplate('{{n}} {{t}} {{o}} {{a}}', { n: 1.5, t: false, o: { k: 'v' }, a: [1, 'two'] }, 'text')).toBe('1.5 false {"k":"v"} [1,"two"]');
  });

  it('reads a dotted name as an own key first, then as a path through nested objects', () => {
    expect(renderTemplate('{{call.id}}', { 'call.id': 'flat', call: { id: 'nested' } }, 'text')).toBe('flat');
    expect(renderTemplate('{{call.id}}/{{call.buyer.name}}', { call: { id: 7, buyer: { name: 'B' } } }, 'text')).toBe('7/B');
    expect(renderTemplate('[{{call.missing.deeper}}]', { call: { id: 7 } }, 'text')).toBe('[]');
  });

  it('never reads inherited properties', () => {
    expect(renderTemplate('[{{constructor}}|{{toString}}|{{a.constructor}}|{{__proto__}}]', { a: {} }, 'text')).toBe('[|||]');
  });

  it('leaves text that is not a placeholder as written', () => {
    const template = '{{first name}} {{}} {{$x}} {x} {{ok} {{{ok}}}';
    expect(renderTemplate(template, { ok: 'Y', x: 'X' }, 'text')).toBe('{{first name}} {{}} {{$x}} {x} {{ok} {Y}');
  });

  describe('escaping by mode', () => {
    const tokens = { v: 'a b&c=d/é"\\\n' };

    it('url and form: encodeURIComponent', () => {
      expect(renderTemplate('https://x.test/?q={{v}}', tokens, 'url')).toBe('https://x.test/?q=a%20b%26c%3Dd%2F%C3%A9%22%5C%0A');
      expect(renderTemplate('q={{v}}', tokens, 'form')).toBe('q=a%20b%26c%3Dd%2F%C3%A9%22%5C%0A');
    });

    it('json: escaped for the inside of a JSON string, so the body stays valid JSON', () => {
      const body = renderTemplate('{"v":"{{v}}","o":"{{o}}"}', { ...tokens, o: { k: '"' } }, 'json');
      expect(JSON.parse(body)).toEqual({ v: tokens.v, o: '{"k":"\\""}' });
    });

    it('text: the value as is', () => {
      expect(renderTemplate('{{v}}', tokens, 'text')).toBe(tokens.v);
    });

    it('does not throw on an unpaired surrogate in url mode', () => {
      expect(renderTemplate('{{v}}', { v: 'a\uD800b' }, 'url')).toBe('a%EF%BF%BDb');
    });

    it('leaves the template text itself unescaped', () => {
      expect(renderTemplate('a b&{{v}}', { v: ' ' }, 'url')).toBe('a b&%20');
    });
  });

  describe('output bound', () => {
    it('renders output of exactly the maximum', () => {
      const value = 'x'.repeat(MAX_TEMPLATE_OUTPUT_BYTES - 2);
      expect(renderTemplate('[{{v}}]', { v: value }, 'text')).toHaveLength(MAX_TEMPLATE_OUTPUT_BYTES);
    });

    it('throws one byte over, counting UTF-8 bytes and the escaping', () => {
      expect(() => renderTemplate('[{{v}}]', { v: 'x'.repeat(MAX_TEMPLATE_OUTPUT_BYTES - 1) }, 'text')).toThrow(TemplateTooLargeError);
      // 'é' is one UTF-16 unit but two UTF-8 bytes.
      expect(() => renderTemplate('{{v}}', { v: 'é'.repeat(MAX_TEMPLATE_OUTPUT_BYTES / 2 + 1) }, 'text')).toThrow(TemplateTooLargeError);
      // Each space is three characters once URL-encoded.
      expect(() => renderTemplate('{{v}}', { v: ' '.repeat(Math.floor(MAX_TEMPLATE_OUTPUT_BYTES / 3) + 1) }, 'url')).toThrow(TemplateTooLargeError);
    });

    it('throws when many small values add up past the maximum', () => {
      const template = '{{v}}'.repeat(1000);
      expect(() => renderTemplate(template, { v: 'x'.repeat(100) }, 'text')).toThrow(TemplateTooLargeError);
    });
  });
});

describe('templateTokens', () => {
  it('lists each name once, in order of first use, ignoring what is not a placeholder', () => {
    expect(templateTokens('{{b}} {{ a }} {{b}} {{not a name}} {{c.d}}')).toEqual(['b', 'a', 'c.d']);
    expect(templateTokens('no placeholders')).toEqual([]);
  });
});
