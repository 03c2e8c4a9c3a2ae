import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash, webcrypto } from "node:crypto";

import { authorizationScheme, createRestClient } from "../../src/rest.js";
import { base64url, createPkceSignIn, makePkcePair, OAuthError } from "../../src/oauth.js";
import type { PkceSignInOptions, StorageLike } from "../../src/oauth.js";

const SERVER = "https://play.example";
const REDIRECT = "https://board.example/callback";

/** sessionStorage's surface over a Map. */
class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string) { return this.items.get(key) ?? null; }
  setItem(key: string, value: string) { this.items.set(key, value); }
  removeItem(key: string) { this.items.delete(key); }
}

interface Seen { url: string; method: string; headers: Record<string, string>; form: URLSearchParams }

/** A fake authorization server: records each request, answers from `answer`. */
function fakeFetch(answer: (seen: Seen) => { status: number; body: unknown }) {
  const seen: Seen[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const request: Seen = {
      url: String(input),
      method: init?.method ?? "GET",
      headers: Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>)),
      form: new URLSearchParams(String(init?.body ?? "")),
    };
    seen.push(request);
    const { status, body } = answer(request);
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

function tokensAnswer(n: number) {
  return { status: 200, body: {
    access_token: `hqa_access${n}`, refresh_token: `hqr_refresh${n}`, token_type: "Bearer",
    expires_in: 3600, scope: "account:read match:play",
  } };
}

function helper(extra: Partial<PkceSignInOptions> = {}) {
  const storage = new MemoryStorage();
  const navigated: string[] = [];
  let issued = 0;
  const server = fakeFetch((req) => (req.url.endsWith("/oauth/token/") ? tokensAnswer(++issued) : { status: 200, body: {} }));
  const signIn = createPkceSignIn({
    server: `${SERVER}/`, clientId: "app-1", redirectUri: REDIRECT,
    scopes: ["account:read", "match:play"], storage, fetch: server.fetch,
    crypto: webcrypto as unknown as Crypto, navigate: (url) => navigated.push(url), ...extra,
  });
  return { signIn, storage, navigated, server };
}

/** What the consent page's Allow sends the browser back to. */
function redirectBack(authorizeUrl: string, extra: Record<string, string> = { code: "the-code" }) {
  const state = new URL(authorizeUrl).searchParams.get("state")!;
  return `${REDIRECT}?${new URLSearchParams({ ...extra, state })}`;
}

describe("PKCE", () => {
  it("makes a verifier of 43..128 URL-safe characters and its S256 challenge", async () => {
    const { verifier, challenge } = await makePkcePair(webcrypto as unknown as Crypto);
    assert.match(verifier, /^[A-Za-z0-9_-]{43,128}$/);
    const expected = createHash("sha256").update(verifier).digest("base64url");
    assert.equal(challenge, expected);
    assert.notEqual((await makePkcePair(webcrypto as unknown as Crypto)).verifier, verifier);
  });

  it("encodes RFC 7636's example", () => {
    // RFC 7636 appendix B: the verifier's SHA-256, base64url without padding
    const digest = createHash("sha256").update("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").digest();
    assert.equal(base64url(new Uint8Array(digest)), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });
});

describe("start", () => {
  it("sends the browser to /oauth/authorize/ with the challenge, S256 and a state, and keeps the verifier", async () => {
    const { signIn, storage, navigated } = helper();
    const url = await signIn.start();
    assert.deepEqual(navigated, [url]);
    const parsed = new URL(url);
    assert.equal(`${parsed.origin}${parsed.pathname}`, `${SERVER}/oauth/authorize/`);
    const query = parsed.searchParams;
    assert.equal(query.get("response_type"), "code");
    assert.equal(query.get("client_id"), "app-1");
    assert.equal(query.get("redirect_uri"), REDIRECT);
    assert.equal(query.get("scope"), "account:read match:play");
    assert.equal(query.get("code_challenge_method"), "S256");
    const pending = JSON.parse(storage.getItem("hanhansa.oauth.pending")!);
    assert.equal(query.get("state"), pending.state);
    assert.equal(query.get("code_challenge"), createHash("sha256").update(pending.verifier).digest("base64url"));
    // the verifier never travels in the URL
    assert.ok(!url.includes(pending.verifier));
  });
});

describe("callback", () => {
  it("redeems the code with the verifier as a public client, once", async () => {
    const { signIn, storage, server } = helper();
    const url = await signIn.authorizationUrl();
    const { verifier } = JSON.parse(storage.getItem("hanhansa.oauth.pending")!);
    assert.ok(signIn.isCallback(redirectBack(url)));
    const tokens = await signIn.callback(redirectBack(url));
    assert.equal(tokens.accessToken, "hqa_access1");
    assert.equal(tokens.refreshToken, "hqr_refresh1");
    assert.deepEqual(tokens.scopes, ["account:read", "match:play"]);
    assert.equal(server.seen.length, 1);
    const [request] = server.seen;
    assert.equal(request!.url, `${SERVER}/oauth/token/`);
    assert.equal(request!.method, "POST");
    assert.equal(request!.headers["Content-Type"], "application/x-www-form-urlencoded");
    assert.deepEqual(Object.fromEntries(request!.form), {
      grant_type: "authorization_code", code: "the-code", redirect_uri: REDIRECT,
      code_verifier: verifier, client_id: "app-1",
    });
    assert.ok(!request!.form.has("client_secret"));
    assert.equal(storage.getItem("hanhansa.oauth.pending"), null);
    // a replayed redirect does nothing
    await assert.rejects(signIn.callback(redirectBack(url)), { code: "no_pending_sign_in" });
    assert.equal(server.seen.length, 1);
  });

  it("refuses an answer whose state is not this sign-in's, and sends nothing", async () => {
    const { signIn, server } = helper();
    await signIn.authorizationUrl();
    await assert.rejects(signIn.callback(`${REDIRECT}?code=stolen&state=forged`),
      (error: unknown) => error instanceof OAuthError && error.code === "state_mismatch");
    assert.equal(server.seen.length, 0);
    assert.equal(signIn.tokens, null);
  });

  it("reports the player's refusal", async () => {
    const { signIn, server } = helper();
    const url = await signIn.authorizationUrl();
    await assert.rejects(signIn.callback(redirectBack(url, { error: "access_denied" })), { code: "access_denied" });
    assert.equal(server.seen.length, 0);
  });

  it("reports the token endpoint's error with its status", async () => {
    const server = fakeFetch(() => ({ status: 400, body: { error: "invalid_grant", error_description: "Invalid code." } }));
    const { signIn } = helper({ fetch: server.fetch });
    const url = await signIn.authorizationUrl();
    await assert.rejects(signIn.callback(redirectBack(url)), { code: "invalid_grant", status: 400, message: "Invalid code." });
    assert.equal(signIn.tokens, null);
  });
});

describe("refresh", () => {
  it("stores the rotated refresh token and uses it next time", async () => {
    const { signIn, server } = helper();
    await signIn.callback(redirectBack(await signIn.authorizationUrl()));
    const second = await signIn.refresh();
    assert.equal(second.accessToken, "hqa_access2");
    assert.equal(second.refreshToken, "hqr_refresh2");
    assert.deepEqual(Object.fromEntries(server.seen[1]!.form),
      { grant_type: "refresh_token", refresh_token: "hqr_refresh1", client_id: "app-1" });
    await signIn.refresh();
    assert.equal(server.seen[2]!.form.get("refresh_token"), "hqr_refresh2");
    assert.equal(signIn.tokens?.refreshToken, "hqr_refresh3");
  });

  it("tells the app the new tokens (its sockets must reconnect with them)", async () => {
    const seen: string[] = [];
    const { signIn } = helper({ onRefresh: (tokens) => seen.push(tokens.accessToken) });
    await signIn.callback(redirectBack(await signIn.authorizationUrl()));
    assert.deepEqual(seen, []);   // a sign-in is not a refresh
    await signIn.refresh();
    assert.deepEqual(seen, ["hqa_access2"]);
  });

  it("runs one refresh at a time: a refresh token is never sent twice", async () => {
    const { signIn, server } = helper();
    await signIn.callback(redirectBack(await signIn.authorizationUrl()));
    const [a, b] = await Promise.all([signIn.refresh(), signIn.refresh()]);
    assert.equal(a, b);
    assert.equal(server.seen.filter((r) => r.form.get("grant_type") === "refresh_token").length, 1);
  });

  it("signs out when the refresh token is refused", async () => {
    let calls = 0;
    const server = fakeFetch(() => (++calls === 1 ? tokensAnswer(1) : { status: 400, body: { error: "invalid_grant" } }));
    const { signIn } = helper({ fetch: server.fetch });
    await signIn.callback(redirectBack(await signIn.authorizationUrl()));
    await assert.rejects(signIn.refresh(), { code: "invalid_grant" });
    assert.equal(signIn.tokens, null);
    await assert.rejects(signIn.refresh(), { code: "not_signed_in" });
  });

  it("refreshes in accessToken() only when the token is about to expire", async () => {
    let now = 1_000_000;
    const { signIn, server } = helper({ now: () => now });
    await signIn.callback(redirectBack(await signIn.authorizationUrl()));
    assert.equal(await signIn.accessToken(), "hqa_access1");
    now += 3600_000 - 30_000; // within the 60 s margin
    assert.equal(await signIn.accessToken(), "hqa_access2");
    assert.equal(server.seen.length, 2);
  });
});

describe("signOut", () => {
  it("revokes both tokens at /oauth/revoke/ (RFC 7009) and forgets them", async () => {
    const { signIn, server } = helper();
    await signIn.callback(redirectBack(await signIn.authorizationUrl()));
    await signIn.signOut();
    const revokes = server.seen.filter((r) => r.url === `${SERVER}/oauth/revoke/`);
    assert.deepEqual(revokes.map((r) => Object.fromEntries(r.form)).sort((x, y) => x.token!.localeCompare(y.token!)), [
      { token: "hqa_access1", client_id: "app-1" },
      { token: "hqr_refresh1", client_id: "app-1" },
    ]);
    assert.equal(signIn.tokens, null);
    assert.equal(await signIn.accessToken(), null);
  });

  it("forgets the tokens even when the server cannot be reached", async () => {
    let up = true;
    const server = fakeFetch(() => {
      if (!up) throw new TypeError("fetch failed");
      return tokensAnswer(1);
    });
    const { signIn } = helper({ fetch: server.fetch });
    await signIn.callback(redirectBack(await signIn.authorizationUrl()));
    up = false;
    await signIn.signOut();
    assert.equal(signIn.tokens, null);
  });
});

describe("persist", () => {
  it("keeps tokens in memory only, unless asked to keep them in sessionStorage", async () => {
    const memory = helper();
    await memory.signIn.callback(redirectBack(await memory.signIn.authorizationUrl()));
    assert.equal(memory.storage.items.size, 0);

    const kept = helper({ persist: true });
    await kept.signIn.callback(redirectBack(await kept.signIn.authorizationUrl()));
    const reloaded = createPkceSignIn({ server: SERVER, clientId: "app-1", redirectUri: REDIRECT,
      storage: kept.storage, persist: true });
    assert.equal(reloaded.tokens?.refreshToken, "hqr_refresh1");
    await kept.signIn.signOut();
    assert.equal(kept.storage.items.size, 0);
  });
});

describe("the REST client with an app's token", () => {
  it("sends OAuth and personal tokens as Bearer, first-party keys as Token", async () => {
    assert.equal(authorizationScheme("hqa_x"), "Bearer");
    assert.equal(authorizationScheme("hqp_x"), "Bearer");
    assert.equal(authorizationScheme("0123456789abcdef0123456789abcdef01234567"), "Token");
    const headers: string[] = [];
    const fetch = (async (request: Request) => {
      headers.push(request.headers.get("Authorization") ?? "");
      return new Response("{}", { status: 200, headers: { "Content-Type": "application/json" } });
    }) as unknown as typeof globalThis.fetch;
    const api = createRestClient({ baseUrl: SERVER, token: "hqa_abc", fetch });
    await api.GET("/api/v1/me");
    assert.deepEqual(headers, ["Bearer hqa_abc"]);
  });
});
