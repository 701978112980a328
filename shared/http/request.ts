import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { Access, Grant } from '../auth/permissions.js';
import type { ApiRecord, ListMetadata } from './envelope.js';
import type { RouteDefinition } from './route-definition.js';

export type ApiEvent = APIGatewayProxyEventV2;
export type ApiResponse = APIGatewayProxyStructuredResultV2;

/** Parameters after merging query string and body (body wins), nested with `qs` semantics. */
export type Params = Record<string, unknown>;

/** Who is calling: every key the request reads or writes is scoped by `companyId`. */
export interface AuthContext {
  companyId: number;
  /** Set when a per-user auth_token authorised the request. */
  userId?: number;
  /** The public half of the API key that authorised the request (not a secret: it names the key). */
  publicKey?: string;
  method: 'api_key' | 'auth_token' | 'none';
  /** What the credential may do (key pairs and admin users: everything). Set on basic routes. */
  access?: Access;
  /**
   * What this request may reach, decided from the route's declared permission (shared/auth/authorize.ts):
   * the records it may see and the fields it may write. Absent or empty: no limit.
   */
  grant?: Grant;
}

/** Everything an operation gets: parsed, authenticated, free of API Gateway specifics. */
export interface OperationRequest {
  route: RouteDefinition;
  params: Params;
  pathParams: Readonly<Record<string, string | undefined>>;
  auth: AuthContext;
  requestId: string;
  now: Date;
  /** The absolute URL that was called (shared/http/request-url.ts). */
  url: string;
  /** Request headers, names lower-cased. */
  headers: Readonly<Record<string, string | undefined>>;
  /** The body's bytes, on routes that take it unparsed (`rawBody`). */
  body?: Buffer;
}

export type OperationResult =
  | { kind: 'record'; root: string; record: ApiRecord; associations?: Record<string, unknown> }
  | { kind: 'list'; plural: string; records: ApiRecord[]; metadata: ListMetadata; bare: boolean; /** The records again under this root too (ResourceDefinition.listAlsoAs). */ alsoAs?: string }
  | { kind: 'raw'; response: ApiResponse };

export type Operation = (request: OperationRequest) => Promise<OperationResult>;

/** The Lambda context as the middleware stack extends it. */
export interface AppContext extends Context {
  route?: RouteDefinition;
  params?: Params;
  auth?: AuthContext;
}
