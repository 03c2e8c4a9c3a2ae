/**
 * Signing a player in from a third-party page: OAuth 2, authorization code with PKCE (S256),
 * as the service's authorization server expects it (docs/apps.md). No password is ever
 * typed into the app's page, and the app holds no secret.
 *
 * ```ts
 * const signIn = createPkceSignIn({
 *   server: "https://play.example.com",
 *   clientId: "<your app's client_id>",
 *   redirectUri: "https://board.example/callback",   // registered exactly
 *   scopes: ["account:read", "match:play"],
 * });
 * if (signIn.isCallback()) await signIn.callback();   // back from the consent page
 * else await signIn.start();                          // off to the consent page
 * const token = await signIn.accessToken();           // refreshed when about to expire
 * ```
 *
 * - {@link PkceSignIn.start} makes a verifier, its S256 challenge (WebCrypto) and a
 *   state, keeps verifier and state in `sessionStorage` (never in a URL), and sends the
 *   browser to `/oauth/authorize/`;
 * - {@link PkceSignIn.callback} checks the state, then redeems the code with the verifier
 *   at `/oauth/token/` as a public client (no secret);
 * - {@link PkceSignIn.refresh} trades the refresh token for new tokens: the server
 *   rotates it, so the new one replaces the old (and one refresh runs at a time: a
 *   refresh token used twice revokes the whole sign-in);
 * - {@link PkceSignIn.signOut} revokes both tokens (RFC 7009, `/oauth/revoke/`) and
 *   forgets them.
 *
 * Tokens live in memory unless `persist: true` keeps them in `sessionStorage` (a reload
 * then stays signed in). Never in `localStorage`: docs/security.md says why.
 */

/** What the helper keeps in storage: `getItem`/`setItem`/`removeItem`, like `sessionStorage`. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface PkceSignInOptions {
  /** The service: `https://play.example.com` (the OAuth endpoints are under `/oauth/`). */
  server: string;
  /** The app's `client_id` (from registering it: docs/apps.md). */
  clientId: string;
  /** One of the app's registered redirect URIs, character for character. */
  redirectUri: string;
  /** The scopes to ask for (default: the server's, `account:read`). Ask for the fewest. */
  scopes?: string[];
  /** Where the verifier and state wait during the redirect (default: `sessionStorage`). */
  storage?: StorageLike;
  /** Keep the tokens in `storage` too, to survive a reload (default: memory only). */
  persist?: boolean;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** WebCrypto (default: `globalThis.crypto`). */
  crypto?: Crypto;
  /** Sends the browser away (default: `location.assign`). */
  navigate?: (url: string) => void;
  /** Refresh this long before the access token expires (default 60 s). */
  refreshMarginMs?: number;
  /** The storage keys' prefix (default `hanhansa.oauth`): one per app on a shared origin. */
  storageKey?: string;
  /** The clock (tests). */
  now?: () => number;
  /**
   * Called with the new tokens after each refresh. The server ends the old access token
   * at once, and the play sockets opened with it close (4401): open a new one with
   * `tokens.accessToken` here.
   */
  onRefresh?: (tokens: OAuthTokens) => void;
}

/** A signed-in player's tokens. */
export interface OAuthTokens {
  /** `hqa_...`: send it as `Authorization: Bearer`, or as the play socket's `hello` token. */
  accessToken: string;
  /** `hqr_...`: rotated at each refresh. */
  refreshToken: string | null;
  /** When the access token expires (ms since the epoch). */
  expiresAt: number;
  /** The scopes the player granted: maybe fewer than asked. */
  scopes: string[];
}

/** A sign-in that failed: OAuth's `error` code (`access_denied`, `invalid_grant`...) or
 * the helper's own (`state_mismatch`, `no_pending_sign_in`, `not_signed_in`,
 * `network_error`, `invalid_response`). */
export class OAuthError extends Error {
  override name = "OAuthError";
  readonly code: string;
  /** The HTTP status of the token endpoint's answer, or null. */
  readonly status: number | null;

  constructor(code: string, message: string, status: number | null = null) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

interface Pending {
  state: string;
  verifier: string;
  redirectUri: string;
}

const VERIFIER_BYTES = 48; // 64 base64url characters (RFC 7636: 43..128)
const STATE_BYTES = 24;

/** Base64url without padding (RFC 7636 appendix A). */
export function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** A fresh PKCE pair: a random verifier and its S256 challenge. */
export async function makePkcePair(crypto: Crypto = globalThis.crypto):
    Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(VERIFIER_BYTES)));
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return { verifier, challenge: base64url(new Uint8Array(digest)) };
}

export class PkceSignIn {
  private readonly options: PkceSignInOptions;
  private readonly server: string;
  private readonly keys: { pending: string; tokens: string };
  private current: OAuthTokens | null = null;
  private refreshing: Promise<OAuthTokens> | null = null;

  constructor(options: PkceSignInOptions) {
    this.options = options;
    this.server = options.server.replace(/\/+$/, "");
    const prefix = options.storageKey ?? "hanhansa.oauth";
    this.keys = { pending: `${prefix}.pending`, tokens: `${prefix}.tokens` };
    if (options.persist) {
      const saved = this.storage.getItem(this.keys.tokens);
      if (saved) this.current = JSON.parse(saved) as OAuthTokens;
    }
  }

  /** The tokens held, or null when signed out. */
  get tokens(): OAuthTokens | null {
    return this.current;
  }

  /** The authorization URL for a new sign-in; keeps its verifier and state in storage. */
  async authorizationUrl(): Promise<string> {
    const crypto = this.options.crypto ?? globalThis.crypto;
    const { verifier, challenge } = await makePkcePair(crypto);
    const state = base64url(crypto.getRandomValues(new Uint8Array(STATE_BYTES)));
    const pending: Pending = { state, verifier, redirectUri: this.options.redirectUri };
    this.storage.setItem(this.keys.pending, JSON.stringify(pending));
    const query = new URLSearchParams({
      response_type: "code",
      client_id: this.options.clientId,
      redirect_uri: this.options.redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state,
    });
    if (this.options.scopes?.length) query.set("scope", this.options.scopes.join(" "));
    return `${this.server}/oauth/authorize/?${query}`;
  }

  /** Sends the browser to the service's consent page (signing in there first). */
  async start(): Promise<string> {
    const url = await this.authorizationUrl();
    const navigate = this.options.navigate ?? ((to: string) => globalThis.location.assign(to));
    navigate(url);
    return url;
  }

  /** Whether `url` (default: this page's) is the redirect back from the consent page. */
  isCallback(url: string = globalThis.location?.href ?? ""): boolean {
    const query = new URL(url, "http://localhost").searchParams;
    return query.has("state") && (query.has("code") || query.has("error"));
  }

  /**
   * Back from the consent page: checks the state, redeems the code with the verifier.
   * The pending sign-in is used up whatever happens, so a replayed URL does nothing.
   */
  async callback(url: string = globalThis.location.href): Promise<OAuthTokens> {
    const query = new URL(url, "http://localhost").searchParams;
    const saved = this.storage.getItem(this.keys.pending);
    this.storage.removeItem(this.keys.pending);
    if (!saved) {
      throw new OAuthError("no_pending_sign_in", "No sign-in was started from this tab.");
    }
    const pending = JSON.parse(saved) as Pending;
    if (query.get("state") !== pending.state) {
      throw new OAuthError("state_mismatch", "The answer does not belong to this sign-in.");
    }
    const error = query.get("error");
    if (error) {
      throw new OAuthError(error, query.get("error_description") ?? error);
    }
    const code = query.get("code");
    if (!code) throw new OAuthError("invalid_request", "The answer carries no code.");
    return this.tokenRequest({
      grant_type: "authorization_code",
      code,
      redirect_uri: pending.redirectUri,
      code_verifier: pending.verifier,
    });
  }

  /**
   * New tokens for the refresh token; the rotated refresh token replaces the old one.
   * Calls made while one runs share it. A refused refresh (`invalid_grant`: expired,
   * revoked, or reused) signs out.
   */
  refresh(): Promise<OAuthTokens> {
    if (this.refreshing) return this.refreshing;
    const refreshToken = this.current?.refreshToken;
    if (!refreshToken) {
      return Promise.reject(new OAuthError("not_signed_in", "No refresh token is held."));
    }
    this.refreshing = this.tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken })
      .then((tokens) => {
        this.options.onRefresh?.(tokens);
        return tokens;
      })
      .catch((error: unknown) => {
        if (error instanceof OAuthError && error.status !== null && error.status < 500) {
          this.forget();
        }
        throw error;
      })
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  /** The access token, refreshed first when it expires within the margin; null when
   * signed out. */
  async accessToken(): Promise<string | null> {
    if (!this.current) return null;
    const margin = this.options.refreshMarginMs ?? 60_000;
    if (this.current.refreshToken && this.now() + margin >= this.current.expiresAt) {
      return (await this.refresh()).accessToken;
    }
    return this.current.accessToken;
  }

  /**
   * Revokes the access and refresh tokens (RFC 7009; the server closes the sockets opened
   * with them) and forgets them. They are forgotten even when the server cannot be reached.
   */
  async signOut(): Promise<void> {
    const held = this.current;
    this.forget();
    if (!held) return;
    const tokens = [held.refreshToken, held.accessToken].filter((t): t is string => !!t);
    await Promise.allSettled(tokens.map((token) => this.post("/oauth/revoke/", {
      token, client_id: this.options.clientId,
    })));
  }

  /** Drops the tokens without telling the server. */
  forget(): void {
    this.current = null;
    this.storage.removeItem(this.keys.tokens);
  }

  private get storage(): StorageLike {
    const storage = this.options.storage ?? globalThis.sessionStorage;
    if (!storage) throw new OAuthError("no_storage", "No sessionStorage: pass `storage`.");
    return storage;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private async tokenRequest(fields: Record<string, string>): Promise<OAuthTokens> {
    const response = await this.post("/oauth/token/", { ...fields, client_id: this.options.clientId });
    let body: Record<string, unknown> = {};
    try {
      body = (await response.json()) as Record<string, unknown>;
    } catch {
      // an answer that is not JSON: reported below by its status
    }
    if (!response.ok) {
      const code = typeof body.error === "string" ? body.error : "http_error";
      const message = typeof body.error_description === "string" ? body.error_description : code;
      throw new OAuthError(code, message, response.status);
    }
    if (typeof body.access_token !== "string") {
      throw new OAuthError("invalid_response", "The token endpoint gave no access token.", response.status);
    }
    const tokens: OAuthTokens = {
      accessToken: body.access_token,
      refreshToken: typeof body.refresh_token === "string" ? body.refresh_token : null,
      expiresAt: this.now() + (typeof body.expires_in === "number" ? body.expires_in : 3600) * 1000,
      scopes: typeof body.scope === "string" ? body.scope.split(" ").filter(Boolean) : [],
    };
    this.current = tokens;
    if (this.options.persist) this.storage.setItem(this.keys.tokens, JSON.stringify(tokens));
    return tokens;
  }

  private async post(path: string, fields: Record<string, string>): Promise<Response> {
    const doFetch = this.options.fetch ?? globalThis.fetch.bind(globalThis);
    try {
      // a form body: a "simple" CORS request, and what OAuth's endpoints read
      return await doFetch(`${this.server}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: new URLSearchParams(fields).toString(),
        credentials: "omit",
      });
    } catch (error) {
      throw new OAuthError("network_error", `Could not reach ${this.server}: ${String(error)}`);
    }
  }
}

/** A PKCE sign-in helper for one app ({@link PkceSignIn}). */
export function createPkceSignIn(options: PkceSignInOptions): PkceSignIn {
  return new PkceSignIn(options);
}
