/**
 * The play client's behaviour against a tiny fake server (fake-server.ts): hello, ply
 * bookkeeping, acks and refusals, timeouts, reconnection with resync, close codes. The
 * same paths run against the real server in test/server/.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";

import { WebSocket } from "ws";

import {
  connect,
  playUrl,
  PlayError,
  type DisconnectInfo,
  type FeedEvent,
  type PlayClient,
  type SyncMessage,
  type UpdateMessage,
  type WebSocketConstructor,
} from "../../src/index.js";
import { FakePlayServer } from "./fake-server.js";

const WS = WebSocket as unknown as WebSocketConstructor;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const FAST = { initialDelayMs: 20, maxDelayMs: 200, jitter: 0 };

let server: FakePlayServer;
let clients: PlayClient[] = [];

async function open(options: Partial<Parameters<typeof connect>[0]> = {}): Promise<PlayClient> {
  const client = await connect({ url: server.url, token: "good", WebSocket: WS, reconnect: FAST, ...options });
  clients.push(client);
  return client;
}

beforeEach(async () => {
  server = await FakePlayServer.start();
  clients = [];
});

afterEach(async () => {
  for (const client of clients) client.close();
  await server.stop();
});

describe("connecting", () => {
  it("sends hello with the token first and resolves on welcome", async () => {
    const client = await open();
    assert.equal(client.state, "open");
    assert.deepEqual(client.user, { id: 1, username: "ann" });
    assert.equal(server.received[0]?.message.op, "hello");
    assert.equal(server.received[0]?.message.token, "good");
  });

  it("rejects with not_authenticated (401) when the server closes 4401, and never retries", async () => {
    const error = await connect({ url: server.url, token: "bad", WebSocket: WS }).then(
      () => assert.fail("connected"), (e: unknown) => e as PlayError);
    assert.ok(error instanceof PlayError);
    assert.equal(error.code, "not_authenticated");
    assert.equal(error.status, 401);
    assert.equal(error.message, "Invalid token.");
    await sleep(100);
    assert.equal(server.sockets.length, 1);
  });

  it("rejects with too_many_sockets (429), not a token refusal, when the server closes 4430", async () => {
    const error = await connect({ url: server.url, token: "crowded", WebSocket: WS }).then(
      () => assert.fail("connected"), (e: unknown) => e as PlayError);
    assert.ok(error instanceof PlayError);
    assert.equal(error.code, "too_many_sockets");
    assert.equal(error.status, 429);
    assert.equal(error.kind, "disconnected");
  });

  it("rejects when nothing listens", async () => {
    const url = server.url;
    await server.stop();
    await assert.rejects(connect({ url, token: "good", WebSocket: WS }),
      (e: unknown) => e instanceof PlayError && e.kind === "disconnected");
    server = await FakePlayServer.start(); // for afterEach
  });

  it("turns an http base URL into the play socket's", () => {
    assert.equal(playUrl("http://127.0.0.1:8000"), "ws://127.0.0.1:8000/play/");
    assert.equal(playUrl("https://games.example/"), "wss://games.example/play/");
    assert.equal(playUrl("ws://h:1/play/"), "ws://h:1/play/");
  });
});

describe("subscriptions and moves", () => {
  it("resolves subscribe after the first sync and keeps the last ply", async () => {
    server.play(1);
    server.play(0);
    const client = await open();
    const syncs: SyncMessage[] = [];
    const match = await client.subscribe(7, { onSync: (sync) => syncs.push(sync) });
    assert.equal(match.match, "7");
    assert.equal(match.seat, 0);
    assert.equal(match.ply, 2);
    assert.equal(syncs.length, 1);
    assert.equal(syncs[0]?.moves.length, 2);
    assert.deepEqual(match.legalMoves, [{ type: "pass" }, { type: "draw" }]);
  });

  it("acks a move after the commit, before the update of that ply, expected_ply defaulting to the last ply", async () => {
    const client = await open();
    const order: string[] = [];
    const match = await client.subscribe<"han">("7", {
      onUpdate: (update) => order.push(`update ${update.ply}`),
    });
    const ack = await match.move({ type: "draw", from: "pile" }).then((a) => {
      order.push(`ack ${a.ply}`);
      return a;
    });
    assert.deepEqual(ack, { match: "7", ply: 1 });
    await server.until(() => order.length === 2);
    assert.deepEqual(order, ["ack 1", "update 1"]);
    assert.equal(server.ops("move")[0]?.expected_ply, 0);
    assert.equal(match.ply, 1);
  });

  it("sends no expected_ply for expectedPly: null", async () => {
    const client = await open();
    await client.subscribe(7);
    await client.move(7, { type: "draw", from: "pile" }, { expectedPly: null });
    assert.ok(!("expected_ply" in server.ops("move")[0]!));
  });

  it("rejects a refused move with REST's code and status", async () => {
    const client = await open();
    await client.subscribe(7);
    const error = await client.move(7, { type: "draw", from: "pile" }, { expectedPly: 5 }).then(
      () => assert.fail("acked"), (e: unknown) => e as PlayError);
    assert.ok(error instanceof PlayError);
    assert.equal(error.kind, "refused");
    assert.equal(error.code, "stale_ply");
    assert.equal(error.status, 409);
    assert.equal(error.match, "7");
    assert.deepEqual(error.details, { expected_ply: 5, current_ply: 0 });
  });

  it("times a move out, and reports a late refusal through onError", async () => {
    server.options.answerMoves = false;
    const errors: PlayError[] = [];
    const client = await open({ onError: (e) => errors.push(e) });
    await client.subscribe(7);
    const error = await client.move(7, { type: "draw", from: "pile" }, { timeoutMs: 50 }).then(
      () => assert.fail("acked"), (e: unknown) => e as PlayError);
    assert.equal(error.kind, "timeout");
    assert.equal(error.code, "timeout");
    assert.equal(error.status, null);
    server.send(server.sockets[0]!, { op: "refused", match: "7", status: 409, ref: server.ops("move")[0]!.ref,
      error: { code: "not_your_turn", message: "wait" } });
    await server.until(() => errors.length === 1);
    assert.equal(errors[0]?.code, "not_your_turn");
  });

  it("rejects a subscribe the server answers with an error, and forgets it", async () => {
    const client = await open();
    await assert.rejects(client.subscribe(99), (e: unknown) =>
      e instanceof PlayError && e.kind === "error" && e.code === "match_not_found");
    assert.equal(client.subscription(99), undefined);
  });

  it("rejects a subscribe left unanswered, and tells the server to stop", async () => {
    const client = await open();
    server.options.answerSubscribes = false;
    await assert.rejects(client.subscribe(7, {}, { timeoutMs: 80 }), (e: unknown) =>
      e instanceof PlayError && e.kind === "timeout");
    assert.equal(client.subscription(7), undefined);
    await server.until(() => server.ops("unsubscribe").length === 1);
  });

  it("refuses a second subscription to the same match", async () => {
    const client = await open();
    await client.subscribe(7);
    await assert.rejects(client.subscribe("7"), (e: unknown) =>
      e instanceof PlayError && e.code === "already_subscribed");
  });

  it("refuses a frame longer than max_message_bytes without sending it", async () => {
    const client = await open();
    await client.subscribe(7);
    await assert.rejects(client.move(7, { type: "place", cards: [], pieces: [
      { kind: "house", space: "x".repeat(2000) }] }),
    (e: unknown) => e instanceof PlayError && e.code === "payload_too_large" && e.status === 413);
    assert.equal(server.ops("move").length, 0);
  });

  it("unsubscribes", async () => {
    const client = await open();
    const match = await client.subscribe(7);
    await match.unsubscribe();
    assert.equal(match.active, false);
    assert.equal(server.ops("unsubscribe").length, 1);
    server.play(1);
    await sleep(50);
    assert.equal(match.ply, null);
  });

  it("answers ping", async () => {
    const client = await open();
    assert.ok((await client.ping()) >= 0);
  });
});

describe("reconnecting", () => {
  it("rejects a pending move at a loss, never resends it, and resyncs exactly the missed moves", async () => {
    server.options.answerMoves = false;
    const syncs: [SyncMessage, boolean][] = [];
    const updates: UpdateMessage[] = [];
    const disconnects: DisconnectInfo[] = [];
    let reconnected = 0;
    const client = await open({
      onDisconnect: (info) => disconnects.push(info),
      onReconnect: () => { reconnected += 1; },
    });
    await client.subscribe(7, {
      onSync: (sync, { resync }) => syncs.push([sync, resync]),
      onUpdate: (update) => updates.push(update),
    });
    server.play(0);
    await server.until(() => updates.length === 1);
    const pending = client.move(7, { type: "draw", from: "pile" });
    await server.until(() => server.ops("move").length === 1);
    server.closeAll(1001, "restart");
    const error = await pending.then(() => assert.fail("acked"), (e: unknown) => e as PlayError);
    assert.equal(error.kind, "disconnected");
    assert.match(error.message, /may or may not have been committed/);
    // while the client is away, two moves land
    server.play(1);
    server.play(0);
    await server.until(() => reconnected === 1 && syncs.length === 2);
    assert.equal(disconnects[0]?.code, 1001);
    assert.equal(disconnects[0]?.willReconnect, true);
    const resubscribe = server.received.filter((r) => r.socket === 1).map((r) => r.message);
    assert.deepEqual(resubscribe.map((m) => m.op), ["hello", "subscribe"]);
    assert.equal(resubscribe[1]?.since, 1);
    const [resync, flagged] = syncs[1]!;
    assert.equal(flagged, true);
    assert.deepEqual(resync.moves.map((m) => m.ply), [1, 2]);
    assert.equal(client.subscription(7)?.ply, 3);
    assert.equal(server.ops("move").length, 1, "the move was sent once");
  });

  it("reconnects after a network loss, 1011 and 4408, resuming the feed after the last event id", async () => {
    server.announce();
    const events: FeedEvent[] = [];
    let reconnected = 0;
    const client = await open({ onReconnect: () => { reconnected += 1; } });
    client.feed(null, (event) => events.push(event));
    await server.until(() => events.length === 1);
    server.announce();
    await server.until(() => events.length === 2);
    for (const [n, drop] of [[1, () => server.terminateAll()], [2, () => server.closeAll(1011)],
      [3, () => server.closeAll(4408)]] as const) {
      drop();
      await server.until(() => reconnected === n);
    }
    // onReconnect comes once the client has sent its feed again, which the server may
    // not have read yet (a fresh-clone CI read three): wait for it to arrive
    await server.until(() => server.ops("feed").length === 4);
    const feeds = server.ops("feed");
    assert.deepEqual(feeds.map((m) => m.after), [undefined, 2, 2, 2]);
    server.announce();
    await server.until(() => events.length === 3);
    assert.deepEqual(events.map((e) => e.id), [1, 2, 3]);
    assert.equal(client.lastEventId, 3);
  });

  it("follows the feed once per client", async () => {
    const client = await open();
    client.feed(null, () => {});
    assert.throws(() => client.feed(3, () => {}), (e: unknown) =>
      e instanceof PlayError && e.code === "already_following");
  });

  it("never delivers a feed event twice", async () => {
    const events: FeedEvent[] = [];
    const client = await open();
    client.feed(null, (event) => events.push(event));
    server.announce();
    await server.until(() => events.length === 1);
    server.send(server.sockets[0]!, { op: "feed_event", event: server.feedEvents[0]! });
    await client.ping();
    assert.equal(events.length, 1);
  });

  it("stops at 4401 after welcome and calls onAuthLost", async () => {
    const lost: number[] = [];
    const closed: number[] = [];
    const client = await open({ onAuthLost: (info) => lost.push(info.code), onClose: (info) => closed.push(info.code) });
    const match = client.subscribe(99).catch((e: unknown) => e);
    server.closeAll(4401, "token revoked");
    await server.until(() => lost.length === 1);
    assert.equal(client.state, "closed");
    assert.deepEqual(closed, [4401]);
    const error = (await match) as PlayError;
    assert.equal(error.code, "not_authenticated");
    await sleep(100);
    assert.equal(server.sockets.length, 1);
  });

  it("retries a throttled hello after retry_after_seconds, though the server closes it 4401", async () => {
    const disconnects: DisconnectInfo[] = [];
    let reconnected = 0;
    const client = await open({
      onDisconnect: (info) => disconnects.push(info),
      onReconnect: () => { reconnected += 1; },
    });
    server.options.throttleHellos = 1;
    server.closeAll(1001);
    await server.until(() => reconnected === 1);
    assert.equal(client.state, "open");
    assert.deepEqual(disconnects.map((d) => d.delayMs), [20, 200]);
    assert.equal(server.sockets.length, 3);
  });

  it("does not reconnect after 1000 from the server", async () => {
    const closed: number[] = [];
    const client = await open({ onClose: (info) => closed.push(info.code) });
    server.closeAll(1000);
    await server.until(() => closed.length === 1);
    assert.equal(client.state, "closed");
    await sleep(60);
    assert.equal(server.sockets.length, 1);
  });

  it("stops retrying with a 4401 at a reconnection", async () => {
    const lost: number[] = [];
    const client = await open({ onAuthLost: (info) => lost.push(info.code) });
    server.options.tokens = [];
    server.closeAll(1001);
    await server.until(() => lost.length === 1);
    assert.equal(client.state, "closed");
    assert.equal(server.sockets.length, 2);
  });

  it("backs off between failed attempts and gives up after maxAttempts", async () => {
    const disconnects: DisconnectInfo[] = [];
    const closed: string[] = [];
    const client = await open({
      reconnect: { initialDelayMs: 10, factor: 2, maxDelayMs: 40, jitter: 0, maxAttempts: 4 },
      onDisconnect: (info) => disconnects.push(info),
      onClose: (info) => closed.push(info.reason),
    });
    server.options.tokens = ["good"];
    const url = server.url;
    await server.stop();
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(url);
    await new Promise<void>((resolve) => {
      const wait = () => (closed.length ? resolve() : setTimeout(wait, 10));
      wait();
    });
    assert.deepEqual(disconnects.map((d) => d.delayMs), [10, 20, 40, 40, null]);
    assert.match(closed[0]!, /gave up after 4 attempts/);
    assert.equal(client.state, "closed");
    server = await FakePlayServer.start();
  });

  it("treats a silent server as lost (heartbeat) and reconnects", async () => {
    let reconnected = 0;
    const disconnects: DisconnectInfo[] = [];
    const client = await open({
      heartbeatTimeoutMs: 80,
      onDisconnect: (info) => disconnects.push(info),
      onReconnect: () => { reconnected += 1; },
    });
    // the fake never pings: after 80 ms of silence the client gives the socket up
    await server.until(() => reconnected >= 1);
    assert.equal(disconnects[0]?.code, 1006);
    assert.match(disconnects[0]!.reason, /no message from the server/);
    assert.equal(disconnects[0]!.willReconnect, true);
    client.close(); // the fake never pings: the new connection would be given up too
  });

  it("refuses a move while reconnecting, sending nothing", async () => {
    const client = await open({ reconnect: { initialDelayMs: 200, jitter: 0 } });
    await client.subscribe(7);
    server.closeAll(1001);
    await server.until(() => client.state === "reconnecting");
    await assert.rejects(client.move(7, { type: "draw", from: "pile" }), (e: unknown) =>
      e instanceof PlayError && e.kind === "disconnected" && e.code === "not_connected");
    await server.until(() => client.state === "open");
    assert.equal(server.ops("move").length, 0);
  });

  it("rejects everything pending at close()", async () => {
    server.options.answerMoves = false;
    const client = await open();
    await client.subscribe(7);
    const pending = client.move(7, { type: "draw", from: "pile" });
    client.close();
    await assert.rejects(pending, (e: unknown) => e instanceof PlayError && e.kind === "closed");
    await assert.rejects(client.subscribe(8), (e: unknown) => e instanceof PlayError && e.kind === "closed");
  });
});
