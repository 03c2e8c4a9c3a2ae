/**
 * One match a play socket client follows (socket.ts): what it was last sent, and how a
 * `sync` or `update` is taken in (in order, nothing doubled, a gap reported).
 */
import { PlayError } from "./errors.js";
import type { GameName, MoveOf } from "./moves.js";
import type { MatchId, MatchPush, SyncMessage, UpdateMessage } from "./protocol.js";
import type { Ack, MoveOptions, SubscriptionHandlers } from "./socket-options.js";

/** What a subscription asks of its client. */
export interface SubscriptionOwner {
  move(match: MatchId, move: MoveOf<any>, options?: MoveOptions): Promise<Ack>;
  unsubscribe(match: MatchId): Promise<void>;
}

export interface SubscriptionEntry {
  match: string;
  handlers: SubscriptionHandlers<any>;
  /** the ply of the last sync/update this client was sent (null before the first) */
  ply: number | null;
  seat: number | null;
  last: MatchPush<any> | null;
  /** the first sync resolves subscribe() */
  ready: { resolve: (s: Subscription<any>) => void; reject: (e: PlayError) => void } | null;
  /** a sync after a reconnect */
  resyncing: boolean;
  timeoutMs: number | undefined;
  handle: Subscription<any>;
}

/** One match you subscribed to, with the last ply and push you were sent. */
export class Subscription<G extends GameName = GameName> {
  readonly match: string;
  readonly #client: SubscriptionOwner;
  readonly #entry: () => SubscriptionEntry | undefined;

  /** @internal */
  constructor(client: SubscriptionOwner, match: string, entry: () => SubscriptionEntry | undefined) {
    this.#client = client;
    this.match = match;
    this.#entry = entry;
  }

  /** The ply of the last `sync`/`update` received (null before the first). */
  get ply(): number | null {
    return this.#entry()?.ply ?? null;
  }

  /** Your seat in this match, or null as a spectator. */
  get seat(): number | null {
    return this.#entry()?.seat ?? null;
  }

  /** The last `sync` or `update` received. */
  get last(): MatchPush<G> | null {
    return (this.#entry()?.last as MatchPush<G> | null) ?? null;
  }

  /** Your legal moves now (from the last push), or null when your seat owes nothing. */
  get legalMoves(): MoveOf<G>[] | null {
    return this.last?.legal_moves ?? null;
  }

  get active(): boolean {
    return this.#entry()?.handle === this;
  }

  /** Play a move of this game; see {@link PlayClient.move}. */
  move(move: MoveOf<G>, options?: MoveOptions): Promise<Ack> {
    return this.#client.move(this.match, move, options);
  }

  unsubscribe(): Promise<void> {
    return this.#client.unsubscribe(this.match);
  }
}

/** Take in a `sync` or `update` for ``entry``: moves already held are dropped, a gap is
 * reported to ``onError``, and the first `sync` resolves `subscribe()`. */
export function applyPush(entry: SubscriptionEntry, message: MatchPush,
                          onError: (error: PlayError) => void): void {
  const held = entry.ply;
  if (held !== null && message.since > held) {
    onError(new PlayError("protocol", "ply_gap",
      `match ${entry.match}: pushed moves from ply ${message.since} while the client held ply ${held}`,
      { match: entry.match, details: { since: message.since, held } }));
  }
  // nothing doubled: a move the client was already sent is dropped
  const moves = held === null ? message.moves : message.moves.filter((move) => move.ply >= held);
  const push = moves.length === message.moves.length ? message : { ...message, moves };
  entry.ply = push.ply;
  entry.last = push;
  if (push.op === "sync") {
    const resync = entry.resyncing;
    entry.resyncing = false;
    entry.handlers.onSync?.(push as SyncMessage, { resync });
    const ready = entry.ready;
    entry.ready = null;
    ready?.resolve(entry.handle);
  } else {
    entry.handlers.onUpdate?.(push as UpdateMessage);
  }
}
