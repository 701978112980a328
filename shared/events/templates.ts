/**
 * Templates of outgoing webhooks (URL, body, header values): `{{ name }}` placeholders replaced
 * by token values, escaped for where the text goes. Pure.
 *
 * - Names are `[A-Za-z0-9_.-]+`, with optional whitespace inside the braces. Any other `{{...}}`
 *   (a space inside the name, `{{}}`, `{{$x}}`) is not a placeholder and stays as written.
 * - A name is looked up as an own key of `tokens` first (`{"data.zip": ...}`); failing that, a
 *   dotted name walks nested objects (`{{call.id}}` reads `tokens.call.id`). Only own properties
 *   count, so `{{constructor}}` or `{{toString}}` never reach the prototype.
 * - A missing token, undefined or null renders as ''; objects and arrays as their JSON text.
 */
export type TemplateMode = 'url' | 'json' | 'form' | 'text';

/**
 * Largest rendered output, in UTF-8 bytes. Over it `renderTemplate` throws rather than cut:
 * a truncated JSON body or URL would be sent broken without anyone noticing, while an error
 * becomes a failed attempt whose log entry says why.
 */
export const MAX_TEMPLATE_OUTPUT_BYTES = 65_536;

export class TemplateTooLargeError extends Error {
  constructor() {
    super(`rendered template is larger than ${MAX_TEMPLATE_OUTPUT_BYTES} bytes`);
    this.name = 'TemplateTooLargeError';
  }
}

/** A fresh regex each use: a shared global regex carries `lastIndex` between calls. */
const placeholders = () => /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/** Unpaired surrogates replaced by U+FFFD: encodeURIComponent throws on them. */
function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function lookup(tokens: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(tokens, name)) return tokens[name];
  if (!name.includes('.')) return undefined;
  let value: unknown = tokens;
  for (const part of name.split('.')) {
    if (!isObject(value) || !Object.hasOwn(value, part)) return undefined;
    value = value[part];
  }
  return value;
}

/** A token value as text, before escaping. */
function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value) ?? '';
  return String(value);
}

function escape(text: string, mode: TemplateMode): string {
  switch (mode) {
    case 'url':
    case 'form':
      return encodeURIComponent(wellFormed(text));
    case 'json':
      return JSON.stringify(text).slice(1, -1);
    case 'text':
      return text;
  }
}

export function renderTemplate(template: string, tokens: Record<string, unknown>, mode: TemplateMode): string {
  const parts: string[] = [];
  let bytes = 0;
  const add = (piece: string) => {
    // Escaping never shortens a value and UTF-8 never takes fewer bytes than UTF-16 units, so
    // a piece longer than what is left fails before it is measured exactly.
    if (piece.length > MAX_TEMPLATE_OUTPUT_BYTES - bytes) throw new TemplateTooLargeError();
    bytes += Buffer.byteLength(piece, 'utf8');
    if (bytes > MAX_TEMPLATE_OUTPUT_BYTES) throw new TemplateTooLargeError();
    parts.push(piece);
  };
  let last = 0;
  for (const match of template.matchAll(placeholders())) {
    add(template.slice(last, match.index));
    const raw = textOf(lookup(tokens, match[1]!));
    if (raw.length > MAX_TEMPLATE_OUTPUT_BYTES - bytes) throw new TemplateTooLargeError();
    add(escape(raw, mode));
    last = match.index + match[0].length;
  }
  add(template.slice(last));
  return parts.join('');
}

/** The token names a template uses, each once, in order of first use. */
export function templateTokens(template: string): string[] {
  return [...new Set(Array.from(template.matchAll(placeholders()), (match) => match[1]!))];
}
