/**
 * Typed REST: openapi-fetch over the types generated from the service's OpenAPI schema
 * (`generated/schema.d.ts`). Every path, parameter, body and answer is checked by the
 * compiler:
 *
 * ```ts
 * const api = createRestClient({ baseUrl: "http://127.0.0.1:8000", token });
 * const match = unwrap(await api.POST("/api/v1/matches/", {
 *   body: { game: "hansa", players: 2 },
 * }));
 * ```
 */
import createClient, { type Client, type ClientOptions, type Middleware } from "openapi-fetch";

import { ApiError } from "./errors.js";
import type { components, operations, paths } from "./generated/schema.js";

export type { components, operations, paths };
/** The schema's components by name: `Schemas["MatchDetail"]`, `Schemas["HanMove"]`... */
export type Schemas = components["schemas"];

export interface RestClientOptions {
  /** The server: `http://127.0.0.1:8000` (paths start with `/api/v1/`). */
  baseUrl: string;
  /** A token: a first-party key (sent as `Authorization: Token <key>`), or an app's
   * OAuth access token or a personal access token (`hqa_`/`hqp_`, sent as
   * `Authorization: Bearer <token>`); without one you are a spectator. */
  token?: string | null;
  /** A fetch implementation (default: the global one). */
  fetch?: ClientOptions["fetch"];
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** openapi-fetch's client for our paths, plus the token it sends. */
export type RestClient = Client<paths> & {
  /** Change (or drop, with null) the token sent from now on. */
  setToken(token: string | null): void;
  readonly token: string | null;
};

export function createRestClient(options: RestClientOptions): RestClient {
  let token = options.token ?? null;
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: options.headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const auth: Middleware = {
    onRequest({ request }) {
      if (token && !request.headers.has("Authorization")) {
        request.headers.set("Authorization", `${authorizationScheme(token)} ${token}`);
      }
      return request;
    },
  };
  client.use(auth);
  return Object.assign(client, {
    setToken(value: string | null) {
      token = value;
    },
    get token() {
      return token;
    },
  });
}

/** The `Authorization` scheme a token goes with: `Bearer` for an app's OAuth access token
 * (`hqa_`) or a personal access token (`hqp_`), `Token` for a first-party key. */
export function authorizationScheme(token: string): "Bearer" | "Token" {
  return /^hq[ap]_/.test(token) ? "Bearer" : "Token";
}

/** What every openapi-fetch call resolves to: `data` on success, else `error`. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/**
 * The answer's body, or an {@link ApiError} with REST's `code`, `message`, `details` and
 * the HTTP status.
 *
 * ```ts
 * try {
 *   unwrap(await api.POST("/api/v1/matches/{match_id}/moves/", { params, body }));
 * } catch (e) {
 *   if (e instanceof ApiError && e.code === "stale_ply") { ... }
 * }
 * ```
 */
export function unwrap<R extends FetchResult>(result: R): Exclude<R["data"], undefined> {
  if (result.error !== undefined || !result.response.ok) {
    throw ApiError.fromResponse(result.response.status, result.error);
  }
  return result.data as Exclude<R["data"], undefined>;
}
