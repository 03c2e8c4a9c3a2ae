/**
 * What the tests against a real server share. tests/clients/test_ts_client.py starts the
 * server (the production web tier) and passes:
 *
 *   HANHANSA_URL     http://127.0.0.1:<port>
 *   HANHANSA_TOKENS  two API tokens of two users, comma-separated
 *
 * Without them these tests are skipped (`npm test` runs the unit tests only).
 */
import { WebSocket } from "ws";

import {
  connect,
  createRestClient,
  unwrap,
  type ConnectOptions,
  type PlayClient,
  type RestClient,
  type WebSocketConstructor,
} from "../../src/index.js";

export const baseUrl = process.env.HANHANSA_URL ?? "";
export const tokens = (process.env.HANHANSA_TOKENS ?? "").split(",").filter(Boolean);
/** `{ skip }` for node:test when no server was given */
export const needsServer = {
  skip: baseUrl && tokens.length >= 2 ? false
    : "no server: set HANHANSA_URL and HANHANSA_TOKENS (tests/clients/test_ts_client.py does)",
};

export const WS = WebSocket as unknown as WebSocketConstructor;

export function rest(seat: number): RestClient {
  return createRestClient({ baseUrl, token: tokens[seat]! });
}

const open: PlayClient[] = [];

export async function play(seat: number | null, options: Partial<ConnectOptions> = {}): Promise<PlayClient> {
  const client = await connect({
    url: baseUrl, token: seat === null ? null : tokens[seat]!, WebSocket: WS,
    reconnect: { initialDelayMs: 50, maxDelayMs: 300 }, ...options,
  });
  open.push(client);
  return client;
}

export function closeAll(): void {
  for (const client of open.splice(0)) client.close();
}

/** A two-seat match of `game`, created by seat 0 and joined by seat 1 over REST (the
 * last seat taken starts it). */
export async function startMatch(game: "han" | "hansa" = "hansa"): Promise<string> {
  const created = unwrap(await rest(0).POST("/api/v1/matches/", { body: { game, players: 2 } }));
  unwrap(await rest(1).POST("/api/v1/matches/{match_id}/join/", {
    params: { path: { match_id: created.id } }, body: {},
  }));
  return String(created.id);
}

export async function until(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
