import type * as v from 'valibot';
import type { JsonSchema } from './json-schema.js';

/**
 * What the OpenAPI document says about one operation of the route table. The resource engine's
 * operations get theirs from the resource declarations (resource-operations.ts); every other
 * operation declares one beside the docs function (functions/docs/operation-docs.ts).
 */

/**
 * The rows an answer carries: a registry resource's records, or rows with these columns (typed
 * by the rules of rows.ts, or by `types` where a column differs from them).
 */
export type RowsDoc = { resource: string } | { name: string; columns: readonly string[]; types?: Record<string, JsonSchema> };

/** What a record or list answer carries beside the envelope: more top-level fields (`success`), its headers. */
interface EnvelopeExtras {
  extra?: Record<string, JsonSchema>;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export type ResponseDoc =
  /** The record envelope, with the record under `record` (the root node); `unsaved`: as `new` shows it, without id or uuid. */
  | ({ record: string; rows: RowsDoc; unsaved?: boolean } & EnvelopeExtras)
  /** The list envelope under `list` (the plural root), or the bare array with `root=false`; `csv`: also, or only, as CSV. */
  | ({ list: string; rows: RowsDoc; csv?: 'also' | 'only'; /** The records under this root too. */ alsoAs?: string } & EnvelopeExtras)
  /** An answer of its own: status, what it is, and its content by media type. */
  | { status: number; description: string; content?: Record<string, JsonSchema>; headers?: Record<string, { description: string; schema: JsonSchema }> };

/** Error statuses the document describes, each with the error envelope (responses.ts). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 422 | 429 | 500;

export interface OperationDoc {
  summary: string;
  description?: string;
  /**
   * The schema the operation validates its parameters with: query parameters for GET, DELETE
   * and OPTIONS, the request body (JSON or form) for POST and PUT.
   */
  params?: v.GenericSchema;
  /** Query parameters of a POST or PUT besides its body (`serializer`). */
  query?: v.GenericSchema;
  /** Parameters no schema declares (a partner's tokens, the carrier's form fields), in words: any object is documented. */
  freeParams?: string;
  /** The path parameters, by name: what they name, and their schema when it is not any text. */
  pathParams?: Record<string, { description: string; schema?: JsonSchema }>;
  response: ResponseDoc;
  /** Statuses this operation answers beyond the ones the document derives for every route (errorStatuses). */
  errors?: readonly ErrorStatus[];
}
