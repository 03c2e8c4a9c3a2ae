/**
 * The play socket client against the real server (docs/play.md): a whole match played by
 * two seats over their sockets, acks after the commit, refusals with REST's codes, and a
 * lost connection that resyncs exactly the missed moves and feed events.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";

import {
  createRestClient,
  PlayError,
  unwrap,
  type CloseInfo,
  type FeedEvent,
  type LoggedMove,
  type MatchPush,
  type MoveOf,
  type PlayClient,
  type Subscription,
  type WebSocketConstructor,
  type WebSocketLike,
} from "../../src/index.js";
import { baseUrl, closeAll, needsServer, play, rest, startMatch, until, WS } from "./support.js";

after(closeAll);

/** What one seat's client received for a match, in order. */
class Seen {
  readonly log: string[] = [];
  readonly moves: LoggedMove[] = [];
  readonly pushes: MatchPush<"hansa">[] = [];
  readonly errors: PlayError[] = [];

  onPush = (push: MatchPush<"hansa">): void => {
    this.log.push(`${push.op} ${push.ply}${push.status === "active" ? "" : " " + push.status}`);
    this.pushes.push(push);
    this.moves.push(...push.moves);
  };

  get last(): MatchPush<"hansa"> {
    return this.pushes[this.pushes.length - 1]!;
  }
}

async function seat(index: number, matchId: string, seen: Seen): Promise<[PlayClient, Subscription<"hansa">]> {
  const client = await play(index, { onError: (error) => seen.errors.push(error) });
  const subscription = await client.subscribe<"hansa">(matchId, {
    onSync: seen.onPush,
    onUpdate: seen.onPush,
  });
  return [client, subscription];
}

async function restPly(matchId: string): Promise<number> {
  const match = unwrap(await rest(0).GET("/api/v1/matches/{match_id}/", {
    params: { path: { match_id: Number(matchId) } },
  }));
  return match.ply;
}

describe("the play socket", needsServer, () => {
  it("plays a whole match with two seats, every ack after the commit and before its update", async () => {
    const matchId = await startMatch("hansa");
    const seen = [new Seen(), new Seen()];
    const seats = [await seat(0, matchId, seen[0]!), await seat(1, matchId, seen[1]!)];
    assert.deepEqual(seats.map(([, s]) => s.seat), [0, 1]);
    const startPly = seats[0]![1].ply!;
    let moves = 0;
    while (seats.some(([, s]) => s.last?.status === "active")) {
      // the seat that owes a decision in what it was last pushed (both may, in Hansa's
      // simultaneous phases), and is up to date with the other's view
      const mover = seats.findIndex(([, s]) => s.legalMoves?.length);
      if (mover < 0 || seats[0]![1].ply !== seats[1]![1].ply) {
        await until(() => seats.some(([, s]) => s.last?.status !== "active" || s.legalMoves?.length)
          && seats[0]![1].ply === seats[1]![1].ply, "a seat to act");
        continue;
      }
      const [, subscription] = seats[mover]!;
      const move = subscription.legalMoves![0]!;
      const before = subscription.ply!;
      const ack = await subscription.move(move);
      seen[mover]!.log.push(`ack ${ack.ply}`);
      assert.equal(ack.match, matchId);
      assert.equal(ack.ply, before + 1);
      // committed before the ack: REST already reads the new ply
      assert.ok((await restPly(matchId)) >= ack.ply, "the move is committed when acked");
      await until(() => seats.every(([, s]) => s.ply! >= ack.ply), `both seats at ply ${ack.ply}`);
      // on the mover's socket, the ack comes before the update of that ply (the last
      // move's too, whose update says "scoring")
      const log = seen[mover]!.log;
      const update = log.findIndex((line) => line.startsWith(`update ${ack.ply}`));
      assert.ok(log.indexOf(`ack ${ack.ply}`) < update,
        `the ack of ply ${ack.ply} comes before its update: ${log.slice(-4).join(", ")}`);
      moves += 1;
    }
    await until(() => seats.every(([, s]) => s.last?.status === "finished"), "the end of the match");
    const ply = await restPly(matchId);
    assert.ok(moves >= 30 && ply === startPly + moves, `a whole match: ${moves} moves to ply ${ply}`);
    for (const seatSeen of seen) {
      // every move exactly once, in order, and each push continuing where the last ended
      assert.deepEqual(seatSeen.moves.map((move) => move.ply), [...Array(ply).keys()].slice(startPly));
      for (let i = 1; i < seatSeen.pushes.length; i += 1) {
        assert.equal(seatSeen.pushes[i]!.since, seatSeen.pushes[i - 1]!.ply);
      }
      assert.deepEqual(seatSeen.errors, []);
      assert.equal(seatSeen.last.legal_moves, null);
    }
  });

  it("refuses a stale move with stale_ply (409), a move out of turn and an illegal one with REST's codes", async () => {
    const matchId = await startMatch("hansa");
    const seen = [new Seen(), new Seen()];
    const seats = [await seat(0, matchId, seen[0]!), await seat(1, matchId, seen[1]!)];
    await until(() => seats.some(([, s]) => s.legalMoves?.length), "a seat to act");
    const mover = seats.findIndex(([, s]) => s.legalMoves?.length);
    const [, subscription] = seats[mover]!;
    const [, other] = seats[1 - mover]!;
    const move = subscription.legalMoves![0]!;

    const stale = await subscription.move(move, { expectedPly: subscription.ply! + 3 })
      .then(() => assert.fail("acked"), (error: unknown) => error as PlayError);
    assert.ok(stale instanceof PlayError);
    assert.equal(stale.kind, "refused");
    assert.equal(stale.code, "stale_ply");
    assert.equal(stale.status, 409);
    assert.equal(stale.match, matchId);

    if (!other.legalMoves?.length) {
      const notYours = await other.move(move).then(() => assert.fail("acked"), (e: unknown) => e as PlayError);
      assert.equal(notYours.code, "not_your_turn");
      assert.equal(notYours.status, 409);
    }
    const illegal = await subscription.move({ type: "fly" } as unknown as MoveOf<"hansa">)
      .then(() => assert.fail("acked"), (e: unknown) => e as PlayError);
    assert.equal(illegal.kind, "refused");
    assert.equal(illegal.status, 400);

    assert.equal(await restPly(matchId), subscription.ply, "nothing was played");
    const ack = await subscription.move(move);
    assert.equal(ack.ply, subscription.ply! + 1);
  });

  it("resyncs exactly the missed moves and feed events after a lost connection", async () => {
    const matchId = await startMatch("hansa");
    // seat 1's network: cut() drops its socket and refuses new ones until restore()
    let offline = false;
    const sockets: WebSocketLike[] = [];
    const Cuttable = class extends (WS as unknown as new (url: string) => WebSocketLike) {
      constructor(url: string) {
        super(offline ? "ws://127.0.0.1:9/play/" : url);
        sockets.push(this);
      }
    } as unknown as WebSocketConstructor;

    const watcher = new Seen();
    const [, watched] = await seat(0, matchId, watcher);
    const seen = new Seen();
    const syncs: { resync: boolean; moves: number[]; since: number }[] = [];
    const events: FeedEvent[] = [];
    let disconnects = 0;
    let reconnects = 0;
    const client = await play(1, {
      WebSocket: Cuttable,
      reconnect: { initialDelayMs: 100, maxDelayMs: 200 },
      onDisconnect: () => { disconnects += 1; },
      onReconnect: () => { reconnects += 1; },
      onError: (error) => seen.errors.push(error),
    });
    client.feed(null, (event) => events.push(event));
    const subscription = await client.subscribe<"hansa">(matchId, {
      onSync: (sync, { resync }) => {
        syncs.push({ resync, since: sync.since, moves: sync.moves.map((m) => m.ply) });
        seen.onPush(sync);
      },
      onUpdate: seen.onPush,
    });
    await until(() => events.some((e) => e.kind === "match_started" && String(e.match_id) === matchId),
      "the feed's match_started");

    // one move over the socket first
    await until(() => Boolean(watched.legalMoves?.length || subscription.legalMoves?.length), "a seat to act");
    const first = (watched.legalMoves?.length ? watched : subscription);
    const firstAck = await first.move(first.legalMoves![0]!);
    await until(() => subscription.ply === firstAck.ply, "seat 1 at the first ply");
    const heldPly = subscription.ply!;
    const heldEvent = client.lastEventId!;

    // the network goes: seat 1's socket dies without a close frame, new ones fail
    offline = true;
    (sockets[sockets.length - 1] as unknown as { terminate(): void }).terminate();
    await until(() => client.state === "reconnecting", "seat 1 reconnecting");
    // meanwhile four moves land, each by the seat owing one (seat 1 over REST)
    for (let played = 0; played < 4; played += 1) {
      const match = unwrap(await rest(0).GET("/api/v1/matches/{match_id}/", {
        params: { path: { match_id: Number(matchId) } },
      }));
      const mover = match.to_act[0]!;
      const legal = unwrap(await rest(mover).GET("/api/v1/matches/{match_id}/legal-moves/", {
        params: { path: { match_id: Number(matchId) } },
      }));
      unwrap(await rest(mover).POST("/api/v1/matches/{match_id}/moves/", {
        params: { path: { match_id: Number(matchId) } },
        body: { move: legal.moves[0]!, expected_ply: legal.ply },
      }));
    }
    const missedTo = await restPly(matchId);
    assert.equal(missedTo, heldPly + 4);
    assert.equal(subscription.ply, heldPly, "nothing arrived while offline");

    offline = false;
    await until(() => reconnects === 1 && subscription.ply === missedTo, "seat 1 resynced");
    assert.ok(disconnects >= 1);
    const resync = syncs[syncs.length - 1]!;
    assert.equal(resync.resync, true);
    assert.equal(resync.since, heldPly);
    assert.deepEqual(resync.moves, [heldPly, heldPly + 1, heldPly + 2, heldPly + 3]);
    // nothing missed, nothing doubled, over the whole life of the subscription
    assert.deepEqual(seen.moves.map((m) => m.ply), [...Array(missedTo).keys()].slice(syncs[0]!.since));
    // the feed resumed after the last event held: the outage's your_turn events once each
    await until(() => events.some((e) => e.id > heldEvent), "the feed's missed events");
    const ids = events.map((e) => e.id);
    assert.deepEqual(ids, [...new Set(ids)].sort((a, b) => a - b), "each event once, in order");
    assert.ok(events.some((e) => e.id > heldEvent && e.kind === "your_turn"));
    assert.deepEqual(seen.errors, []);

    // and play goes on over the new connection
    await until(() => Boolean(watched.legalMoves?.length || subscription.legalMoves?.length)
      && watched.ply === subscription.ply, "a seat to act after the resync");
    const next = subscription.legalMoves?.length ? subscription : watched;
    const ack = await next.move(next.legalMoves![0]!);
    await until(() => subscription.ply === ack.ply, "the next move pushed to seat 1");
  });

  it("rejects a refused token with not_authenticated (401) and never retries", async () => {
    let attempts = 0;
    const Counting = class extends (WS as unknown as new (url: string) => WebSocketLike) {
      constructor(url: string) {
        super(url);
        attempts += 1;
      }
    } as unknown as WebSocketConstructor;
    const refused = await play(null, { token: "not-a-token", WebSocket: Counting })
      .then(() => assert.fail("connected"), (e: unknown) => e as PlayError);
    assert.ok(refused instanceof PlayError);
    assert.equal(refused.code, "not_authenticated");
    assert.equal(refused.status, 401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(attempts, 1);
  });

  it("stops when the token is revoked (4401): onAuthLost, no reconnect", async () => {
    const anonymous = createRestClient({ baseUrl });
    const { token } = unwrap(await anonymous.POST("/api/v1/auth/register/", {
      body: { username: `revoked-${Date.now()}`, password: "a-long-passphrase-42" },
    }));
    let attempts = 0;
    const Counting = class extends (WS as unknown as new (url: string) => WebSocketLike) {
      constructor(url: string) {
        super(url);
        attempts += 1;
      }
    } as unknown as WebSocketConstructor;
    const lost: CloseInfo[] = [];
    const errors: PlayError[] = [];
    const client = await play(null, {
      token, WebSocket: Counting,
      onAuthLost: (info) => lost.push(info),
      onError: (error) => errors.push(error),
    });
    assert.ok(client.user);
    const signedIn = createRestClient({ baseUrl, token });
    const revoked = await signedIn.DELETE("/api/v1/auth/token/");
    assert.equal(revoked.response.status, 204);
    await until(() => lost.length === 1, "the socket closed 4401");
    assert.equal(lost[0]!.code, 4401);
    assert.equal(client.state, "closed");
    assert.deepEqual(errors.map((e) => e.code), ["access_revoked"]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(attempts, 1, "no reconnection after 4401");
  });

  it("lets a spectator follow a match anonymously, and refuses it moves", async () => {
    const matchId = await startMatch("hansa");
    const spectator = await play(null);
    assert.equal(spectator.user, null);
    const subscription = await spectator.subscribe<"hansa">(matchId);
    assert.equal(subscription.seat, null);
    assert.equal(subscription.legalMoves, null);
    const refused = await subscription.move({ type: "choose_start", seat: 0 } as unknown as MoveOf<"hansa">)
      .then(() => assert.fail("acked"), (e: unknown) => e as PlayError);
    assert.equal(refused.code, "authentication_required");
    assert.throws(() => spectator.feed(null, () => {}), (e: unknown) =>
      e instanceof PlayError && e.code === "authentication_required");
  });
});
