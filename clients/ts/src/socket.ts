/**
 * The play socket client (`ws(s)://<host>/play/`, docs/play.md).
 *
 * ```ts
 * const play = await connect({ url: "ws://127.0.0.1:8000/play/", token });
 * const match = await play.subscribe<"han">("42", {
 *   onSync: (sync) => draw(sync.view, sync.legal_moves),
 *   onUpdate: (update) => draw(update.view, update.legal_moves),
 * });
 * const ack = await match.move({ type: "draw" });   // resolved after the commit
 * await play.chat("42", "players", "good luck");      // the message, after the commit
 * ```
 *
 * - `hello` once per connection, then everything on one socket.
 * - Per match it keeps the last ply it was sent; after a lost connection (1001, 1011,
 *   4408, a network loss, or no message for 2.5 heartbeats) it reconnects with back-off,
 *   sends `hello` again, `subscribe` with `since` = that ply for every match and `feed`
 *   with `after` = the last event id: the server answers exactly what was missed.
 * - Moves are acknowledged after the commit (`ack`) or refused with REST's code and
 *   status ({@link PlayError}). A move still unanswered when the connection is lost is
 *   rejected (kind `disconnected`) and never sent again: it may have been committed, and
 *   the resync says whether it was.
 * - 4401 (token refused or revoked) ends the client: no reconnect, `onAuthLost`.
 */
import { PlayError } from "./errors.js";
import { nextTask } from "./next-task.js";
import type { GameName, MoveOf } from "./moves.js";
import type {
  ChatMessage,
  ChatRoom,
  ClientMessage,
  ErrorMessage,
  FeedEvent,
  MatchId,
  MatchPush,
  PlayUser,
  Ref,
  ServerMessage,
  WelcomeMessage,
} from "./protocol.js";
import { helloFailure, reconnectDelay, RECONNECT_CODES, UNAUTHORIZED } from "./reconnect.js";
import type { HelloRefusal } from "./reconnect.js";
import { type Pending, PendingRequests } from "./requests.js";
import type {
  Ack,
  ChatOptions,
  ClientState,
  CloseInfo,
  ConnectOptions,
  MoveOptions,
  SubscribeOptions,
  SubscriptionHandlers,
  WebSocketConstructor,
  WebSocketLike,
} from "./socket-options.js";
import { applyPush, Subscription, type SubscriptionEntry } from "./subscription.js";

export type {
  Ack,
  ChatOptions,
  ClientState,
  CloseInfo,
  ConnectOptions,
  DisconnectInfo,
  MoveOptions,
  ReconnectOptions,
  SubscribeOptions,
  SubscriptionHandlers,
  WebSocketConstructor,
  WebSocketLike,
} from "./socket-options.js";
export { Subscription } from "./subscription.js";

/** WebSocket.OPEN */
const OPEN = 1;

/** `http://host:8000` -> `ws://host:8000/play/`; a ws(s) URL is kept as it is. */
export function playUrl(url: string): string {
  if (/^wss?:/i.test(url)) return url;
  const parsed = new URL(url);
  parsed.protocol = parsed.protocol === "https:" ? "wss:" : "ws:";
  if (parsed.pathname === "/" || parsed.pathname === "") parsed.pathname = "/play/";
  return parsed.toString();
}

/** Connect, authenticate (`hello`) and resolve once `welcome` arrived. Rejects with a
 * {@link PlayError} when the first connection fails (no retry: wrong URL, origin refused,
 * token refused with 4401). */
export async function connect(options: ConnectOptions): Promise<PlayClient> {
  const WebSocketClass = options.WebSocket ?? (await defaultWebSocket());
  const client = new PlayClient(options, WebSocketClass);
  await client.start();
  return client;
}

async function defaultWebSocket(): Promise<WebSocketConstructor> {
  const global = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (global) return global;
  try {
    // node: the optional peer dependency `ws` (a variable keeps bundlers from packing it)
    const name = "ws";
    const module = (await import(name)) as { WebSocket?: unknown; default?: unknown };
    return (module.WebSocket ?? module.default) as WebSocketConstructor;
  } catch {
    throw new PlayError("closed", "no_websocket",
      "no WebSocket here: install the `ws` package (npm install ws) or pass options.WebSocket");
  }
}

// -- internal bookkeeping --------------------------------------------------------------

interface FeedEntry {
  after: number | null;
  onEvent: (event: FeedEvent) => void;
}

interface HelloWaiter {
  ref: Ref;
  /** the server's `error` answering hello, if any (the close follows) */
  refusal?: HelloRefusal;
  resolve: (welcome: WelcomeMessage) => void;
  reject: (error: PlayError) => void;
  timer: ReturnType<typeof setTimeout>;
}

export class PlayClient {
  readonly url: string;
  #options: ConnectOptions;
  #WebSocket: WebSocketConstructor;
  #ws: WebSocketLike | null = null;
  #state: ClientState = "connecting";
  #welcome: WelcomeMessage | null = null;
  #hello: HelloWaiter | null = null;
  #nextRef = 1;
  #pending = new PendingRequests();
  #subscriptions = new Map<string, SubscriptionEntry>();
  #feed: FeedEntry | null = null;
  #lastEventId: number | null = null;
  #watchdog: ReturnType<typeof setTimeout> | null = null;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  #attempt = 0;
  /** a server's retry_after_seconds (throttled hello): the next attempt waits that long */
  #retryAfterMs = 0;
  /** frames received and not yet handled, in order (see #drain) */
  #inbox: unknown[] = [];
  #paused = false;

  /** @internal use {@link connect} */
  constructor(options: ConnectOptions, WebSocketClass: WebSocketConstructor) {
    this.#options = options;
    this.#WebSocket = WebSocketClass;
    this.url = playUrl(options.url);
  }

  // -- what the application reads --------------------------------------------------------

  get state(): ClientState {
    return this.#state;
  }

  /** The last `welcome` (null before the first). */
  get welcome(): WelcomeMessage | null {
    return this.#welcome;
  }

  /** The signed-in user, or null on an anonymous socket. */
  get user(): PlayUser | null {
    return this.#welcome?.user ?? null;
  }

  /** The id of the last feed event received (null before the first). */
  get lastEventId(): number | null {
    return this.#lastEventId;
  }

  /** Your subscription to a match, if any. */
  subscription<G extends GameName = GameName>(match: MatchId): Subscription<G> | undefined {
    return this.#subscriptions.get(String(match))?.handle as Subscription<G> | undefined;
  }

  get subscriptions(): Subscription[] {
    return [...this.#subscriptions.values()].map((entry) => entry.handle);
  }

  // -- requests -------------------------------------------------------------------------

  /**
   * Subscribe to a match (as its seat, or a spectator). Resolves with the subscription
   * once the first `sync` arrived (after `onSync` ran). Before the client is connected
   * again after a loss, the subscription waits for the reconnection.
   */
  subscribe<G extends GameName = GameName>(match: MatchId, handlers: SubscriptionHandlers<G> = {},
                                           options: SubscribeOptions = {}): Promise<Subscription<G>> {
    const id = String(match);
    if (this.#state === "closed") return Promise.reject(this.#closedError());
    if (this.#subscriptions.has(id)) {
      return Promise.reject(new PlayError("error", "already_subscribed",
        `already subscribed to match ${id}: unsubscribe first`, { match: id }));
    }
    return new Promise<Subscription<G>>((resolve, reject) => {
      const entry: SubscriptionEntry = {
        match: id, handlers, ply: options.since ?? null, seat: null, last: null,
        ready: { resolve, reject }, resyncing: false, timeoutMs: options.timeoutMs,
        handle: null as never,
      };
      entry.handle = new Subscription<G>(this, id, () => this.#subscriptions.get(id));
      this.#subscriptions.set(id, entry);
      if (this.#state === "open") this.#sendSubscribe(entry);
    });
  }

  /** Stop receiving a match's pushes. */
  async unsubscribe(match: MatchId): Promise<void> {
    const id = String(match);
    const entry = this.#subscriptions.get(id);
    if (!entry) return;
    this.#subscriptions.delete(id);
    entry.ready?.reject(new PlayError("closed", "unsubscribed", `unsubscribed from match ${id}`,
      { match: id }));
    entry.ready = null;
    if (this.#state !== "open") return; // a new connection will not subscribe it again
    await this.#request<void>("unsubscribe", { op: "unsubscribe", match: id }, id,
      this.#options.timeoutMs ?? 10_000);
  }

  /**
   * Play a move. Resolves with the new ply once the server committed it (`ack`); rejects
   * with a {@link PlayError}: kind `refused` with REST's `code` and `status` (`stale_ply`
   * 409, `not_your_turn` 409, an illegal move's code 400...), `error` (a message the
   * server could not handle), `timeout` (no answer in time: the move may still land) or
   * `disconnected` (the connection was lost first: the move may have been committed;
   * the resync after the reconnection tells. It is never sent again by the client).
   */
  move<G extends GameName = GameName>(match: MatchId, move: MoveOf<G>,
                                      options: MoveOptions = {}): Promise<Ack> {
    const id = String(match);
    const expected = options.expectedPly === undefined
      ? this.#subscriptions.get(id)?.ply ?? null
      : options.expectedPly;
    const message: ClientMessage = {
      op: "move", match: id, move: move as MoveOf,
      ...(expected === null ? {} : { expected_ply: expected }),
    };
    return this.#request<Ack>("move", message, id,
      options.timeoutMs ?? this.#options.moveTimeoutMs ?? 10_000);
  }

  /**
   * Send a chat message to a room of a match (docs/chat.md). Resolves with the message as
   * the room lists it once the server committed it (`ack`); rejects with a
   * {@link PlayError} as {@link move} does: `refused` with REST's code and status
   * (`chat_room_not_writable` 403, `chat_text_empty` 400, `chat_rate_limited` 429...).
   * Not idempotent, so never sent again: after a `timeout` or `disconnected`, list the
   * room (REST) before sending it again. Your own `chat` push of it comes after.
   */
  chat(match: MatchId, room: ChatRoom, text: string, options: ChatOptions = {}
  ): Promise<ChatMessage> {
    const id = String(match);
    return this.#request<Ack & { message: ChatMessage }>(
      "chat", { op: "chat", match: id, room, text }, id,
      options.timeoutMs ?? this.#options.timeoutMs ?? 10_000).then((ack) => ack.message);
  }

  /**
   * Receive your feed (docs/feed.md): every event after `after` (the last id you hold;
   * null or omitted for the whole stored feed), then live ones. The client keeps the
   * last id and resumes from it after a reconnect; an event already delivered is never
   * delivered again. Needs a signed-in socket.
   */
  feed(after: number | null | undefined, onEvent: (event: FeedEvent) => void): void {
    if (this.#state === "closed") throw this.#closedError();
    if (this.#welcome && !this.#welcome.user) {
      throw new PlayError("error", "authentication_required",
        "the feed needs a signed-in socket: connect with a token", { status: 401 });
    }
    if (this.#feed) {
      throw new PlayError("error", "already_following", "this client follows its feed already");
    }
    this.#feed = { after: after ?? null, onEvent };
    this.#lastEventId = after ?? null;
    if (this.#state === "open") this.#sendFeed();
  }

  /** Round trip to the server, in milliseconds. */
  async ping(): Promise<number> {
    const started = Date.now();
    await this.#request<void>("ping", { op: "ping" }, null, this.#options.timeoutMs ?? 10_000);
    return Date.now() - started;
  }

  /** Close for good: pending requests are rejected (kind `closed`), no reconnect. */
  close(): void {
    this.#finish({ code: 1000, reason: "closed by the client" }, "closed");
  }

  // -- connecting -----------------------------------------------------------------------

  /** @internal the first connection (connect() awaits it) */
  async start(): Promise<void> {
    try {
      await this.#establish();
    } catch (error) {
      this.#finish({ code: (error as PlayError).status === 401 ? UNAUTHORIZED : 1006,
        reason: (error as Error).message }, "closed", false);
      throw error;
    }
  }

  /** Open a socket, say hello, wait for welcome; then resume subscriptions and feed. */
  async #establish(): Promise<WelcomeMessage> {
    const welcome = await this.#openSocket();
    this.#welcome = welcome;
    this.#state = "open";
    this.#attempt = 0;
    this.#retryAfterMs = 0;
    this.#armWatchdog();
    for (const entry of this.#subscriptions.values()) this.#sendSubscribe(entry);
    if (this.#feed) this.#sendFeed();
    return welcome;
  }

  #openSocket(): Promise<WelcomeMessage> {
    return new Promise<WelcomeMessage>((resolve, reject) => {
      let ws: WebSocketLike;
      try {
        ws = new this.#WebSocket(this.url);
      } catch (error) {
        reject(new PlayError("disconnected", "connection_failed",
          `cannot open ${this.url}: ${(error as Error).message}`));
        return;
      }
      this.#ws = ws;
      const ref = this.#ref();
      const timeoutMs = this.#options.timeoutMs ?? 10_000;
      this.#hello = {
        ref, resolve, reject,
        timer: setTimeout(() => {
          this.#failHello(new PlayError("timeout", "timeout",
            `no welcome from ${this.url} within ${timeoutMs} ms`));
          this.#abandon(ws);
        }, timeoutMs),
      };
      ws.onopen = () => {
        this.#sendOn(ws, { op: "hello", token: this.#options.token ?? null, ref });
      };
      ws.onmessage = (event) => {
        if (ws !== this.#ws) return;
        this.#armWatchdog();
        this.#inbox.push(event.data);
        this.#drain();
      };
      ws.onerror = () => {
        // a close event follows with the code
      };
      ws.onclose = (event) => {
        if (ws === this.#ws) this.#closed({ code: event.code, reason: event.reason ?? "" });
      };
    });
  }

  #failHello(error: PlayError): void {
    const hello = this.#hello;
    if (!hello) return;
    this.#hello = null;
    clearTimeout(hello.timer);
    hello.reject(error);
  }

  /** Drop a socket without waiting for its close handshake (a dead network may never
   * complete it). */
  #abandon(ws: WebSocketLike): void {
    ws.onopen = ws.onmessage = ws.onclose = ws.onerror = null;
    ws.onerror = () => {};
    try {
      const terminate = (ws as unknown as { terminate?: () => void }).terminate;
      if (typeof terminate === "function") terminate.call(ws);
      else ws.close(4000, "abandoned by the client");
    } catch {
      // already closed
    }
    if (this.#ws === ws) this.#ws = null;
  }

  /** The current socket closed (or was abandoned). */
  #closed(info: CloseInfo): void {
    this.#drain(true); // what arrived before the close is handled first
    this.#ws = null;
    this.#disarmWatchdog();
    if (this.#hello) {
      this.#failHello(helloFailure(this.url, info, this.#hello.refusal));
      return;
    }
    if (this.#state !== "open") return;
    this.#lost(info);
  }

  /** An established connection is gone. */
  #lost(info: CloseInfo): void {
    this.#rejectPending("disconnected", "disconnected",
      `the connection was lost (${info.code}${info.reason ? " " + info.reason : ""}) before the answer: ` +
      "a move may or may not have been committed, the resync after reconnecting tells");
    if (info.code === UNAUTHORIZED) {
      this.#finish(info, "auth");
      return;
    }
    const reconnect = this.#options.reconnect ?? true;
    if (reconnect === false || !RECONNECT_CODES.has(info.code)) {
      this.#finish(info, "closed");
      return;
    }
    this.#state = "reconnecting";
    this.#scheduleReconnect(info);
  }

  #scheduleReconnect(info: CloseInfo): void {
    const settings = typeof this.#options.reconnect === "object" ? this.#options.reconnect : {};
    const maxAttempts = settings.maxAttempts ?? Infinity;
    this.#attempt += 1;
    if (this.#attempt > maxAttempts) {
      this.#options.onDisconnect?.({ ...info, willReconnect: false, delayMs: null, attempt: this.#attempt });
      this.#finish({ code: info.code, reason: `gave up after ${maxAttempts} attempts` }, "closed");
      return;
    }
    const delayMs = reconnectDelay(settings, this.#attempt, this.#retryAfterMs);
    this.#options.onDisconnect?.({ ...info, willReconnect: true, delayMs, attempt: this.#attempt });
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      if (this.#state !== "reconnecting") return;
      this.#establish().then(
        (welcome) => this.#options.onReconnect?.(welcome),
        (error: PlayError) => {
          if (this.#state !== "reconnecting") return;
          if (error.kind === "closed" && error.status === 401) {
            this.#finish({ code: UNAUTHORIZED, reason: error.message }, "auth");
          } else {
            this.#scheduleReconnect({ code: 1006, reason: error.message });
          }
        },
      );
    }, delayMs);
  }

  /** The client ends: pending requests and subscriptions waiting for their first sync
   * are rejected, callbacks told. */
  #finish(info: CloseInfo, why: "closed" | "auth", notify = true): void {
    if (this.#state === "closed") return;
    this.#state = "closed";
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
    this.#disarmWatchdog();
    const ws = this.#ws;
    this.#ws = null;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      ws.onerror = () => {};
      try {
        ws.close(1000);
      } catch {
        // already closed
      }
    }
    const error = why === "auth"
      ? new PlayError("closed", "not_authenticated",
        "the server closed the connection (4401): sign in again", { status: 401, details: info })
      : this.#closedError(info);
    this.#failHello(error);
    this.#rejectPending("closed", error.code, error.message, error.status);
    for (const entry of this.#subscriptions.values()) {
      entry.ready?.reject(error);
      entry.ready = null;
    }
    if (!notify) return;
    if (why === "auth") this.#options.onAuthLost?.(info);
    this.#options.onClose?.(info);
  }

  #closedError(info?: CloseInfo): PlayError {
    return new PlayError("closed", "closed",
      `the play client is closed${info ? ` (${info.code} ${info.reason})` : ""}`, { details: info });
  }

  // -- heartbeat --------------------------------------------------------------------------

  #armWatchdog(): void {
    this.#disarmWatchdog();
    const heartbeat = this.#welcome?.heartbeat_seconds ?? 0;
    const timeoutMs = this.#options.heartbeatTimeoutMs ?? (heartbeat > 0 ? heartbeat * 2500 : 0);
    if (timeoutMs <= 0 || this.#state !== "open") return;
    this.#watchdog = setTimeout(() => {
      const ws = this.#ws;
      if (!ws) return;
      this.#abandon(ws);
      this.#closed({ code: 1006, reason: `no message from the server in ${timeoutMs} ms` });
    }, timeoutMs);
  }

  #disarmWatchdog(): void {
    if (this.#watchdog) clearTimeout(this.#watchdog);
    this.#watchdog = null;
  }

  // -- sending ----------------------------------------------------------------------------

  #ref(): string {
    return String(this.#nextRef++);
  }

  #sendOn(ws: WebSocketLike, message: ClientMessage): void {
    ws.send(JSON.stringify(message));
  }

  #request<T>(kind: Pending["kind"], message: ClientMessage, match: string | null,
              timeoutMs: number): Promise<T> {
    const ws = this.#ws;
    if (this.#state !== "open" || !ws || ws.readyState !== OPEN) {
      return Promise.reject(this.#state === "closed" ? this.#closedError()
        : new PlayError("disconnected", "not_connected",
          "not connected (reconnecting): nothing was sent", { match }));
    }
    const ref = this.#ref();
    const text = JSON.stringify({ ...message, ref });
    const limit = this.#welcome?.max_message_bytes ?? 0;
    if (limit > 0 && new TextEncoder().encode(text).length > limit) {
      return Promise.reject(new PlayError("error", "payload_too_large",
        `the message is longer than the server's max_message_bytes (${limit}): nothing was sent`,
        { status: 413, match }));
    }
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { kind, match, resolve, reject, timer: null, sentAt: Date.now() };
      pending.timer = setTimeout(() => {
        this.#pending.forget(ref);
        reject(new PlayError("timeout", "timeout", kind === "move" || kind === "chat"
          ? `no answer to the ${kind} within ${timeoutMs} ms: it may still be committed; ` +
            (kind === "move" ? "the match's next update tells" : "the room's list tells")
          : `no answer to ${kind} within ${timeoutMs} ms`, { match }));
      }, timeoutMs);
      this.#pending.add(ref, pending);
      try {
        ws.send(text);
      } catch (error) {
        this.#settle(ref);
        reject(new PlayError("disconnected", "not_connected",
          `could not send: ${(error as Error).message}`, { match }));
      }
    });
  }

  #sendSubscribe(entry: SubscriptionEntry): void {
    entry.resyncing = entry.last !== null;
    const message: ClientMessage = {
      op: "subscribe", match: entry.match, ...(entry.ply === null ? {} : { since: entry.ply }),
    };
    this.#request<void>("subscribe", message, entry.match,
      entry.timeoutMs ?? this.#options.timeoutMs ?? 10_000)
      .catch((error: PlayError) => {
        // refused or unanswered: the subscription ends (a lost connection resumes it)
        if (error.kind === "error" || error.kind === "refused" || error.kind === "timeout") {
          if (this.#subscriptions.get(entry.match) !== entry) return;
          this.#dropSubscription(entry.match, error);
          if (error.kind === "timeout" && this.#ws && this.#state === "open") {
            // it may still come: tell the server to stop pushing it
            this.#sendOn(this.#ws, { op: "unsubscribe", match: entry.match, ref: this.#ref() });
          }
        }
      });
  }

  #sendFeed(): void {
    const ws = this.#ws;
    if (!ws || !this.#feed) return;
    const after = this.#lastEventId ?? this.#feed.after;
    this.#sendOn(ws, { op: "feed", ...(after === null ? {} : { after }), ref: this.#ref() });
  }

  #dropSubscription(match: string, error: PlayError | null): void {
    const entry = this.#subscriptions.get(match);
    if (!entry) return;
    this.#subscriptions.delete(match);
    if (entry.ready) {
      if (error) entry.ready.reject(error);
      entry.ready = null;
    } else if (error) {
      entry.handlers.onError?.(error);
      this.#options.onError?.(error);
    }
  }

  #settle(ref: Ref | undefined): Pending | undefined {
    return this.#pending.settle(ref);
  }

  #rejectPending(kind: PlayError["kind"], code: string, message: string,
                 status: number | null = null): void {
    this.#pending.rejectAll(kind, code, message, status);
  }

  // -- receiving --------------------------------------------------------------------------

  /**
   * Handle the received frames in order. After an `ack` settled a move, the next frame
   * waits for a later task, so the move's promise (and whatever awaits it) runs before
   * the `update` of that ply, in the order the server sent them.
   */
  #drain(flush = false): void {
    if (flush) this.#paused = false;
    while (!this.#paused && this.#inbox.length) {
      const acked = this.#receive(this.#inbox.shift());
      if (acked && !flush) {
        this.#paused = true;
        nextTask(() => {
          this.#paused = false;
          this.#drain();
        });
      }
    }
  }

  /** Handle one frame; true when it settled a move with its ack. */
  #receive(data: unknown): boolean {
    let message: ServerMessage;
    try {
      message = JSON.parse(typeof data === "string" ? data : decode(data)) as ServerMessage;
    } catch {
      this.#options.onError?.(new PlayError("protocol", "malformed_message",
        "the server sent a frame that is not JSON"));
      return false;
    }
    if (!message || typeof message !== "object") return false;
    switch (message.op) {
      case "welcome": {
        const hello = this.#hello;
        if (!hello) return false;
        this.#hello = null;
        clearTimeout(hello.timer);
        hello.resolve(message);
        return false;
      }
      case "error":
        this.#onError(message);
        return false;
      case "subscribed": {
        this.#settle(message.ref)?.resolve(undefined); // subscribe() itself waits for the sync
        const entry = this.#subscriptions.get(String(message.match));
        if (entry) entry.seat = message.seat ?? null;
        return false;
      }
      case "unsubscribed":
        this.#settle(message.ref)?.resolve(undefined);
        return false;
      case "sync":
      case "update":
        this.#onMatch(message);
        return false;
      case "feed_event":
        this.#onFeedEvent(message.event);
        return false;
      case "ack": {
        const pending = this.#settle(message.ref);
        pending?.resolve({ match: String(message.match), ply: message.ply,
                           ...(message.message ? { message: message.message } : {}) });
        return pending !== undefined;
      }
      case "chat":
        this.#subscriptions.get(String(message.match))?.handlers.onChat?.(message);
        return false;
      case "refused": {
        const error = new PlayError("refused", message.error?.code ?? "refused",
          message.error?.message ?? "the move was refused",
          { status: message.status ?? null, details: message.error?.details,
            match: String(message.match) });
        const pending = this.#settle(message.ref);
        if (pending) pending.reject(error);
        else this.#options.onError?.(error); // the move had timed out
        return false;
      }
      case "pong":
        this.#settle(message.ref)?.resolve(undefined);
        return false;
      case "ping":
        return false; // answering is optional: any frame keeps the watchdog quiet
      default:
        return false; // an op of a newer protocol: ignored
    }
  }

  #onError(message: ErrorMessage): void {
    const code = message.error?.code ?? "error";
    const text = message.error?.message ?? code;
    const details = message.error?.details;
    const status = typeof message.status === "number" ? message.status : null;
    const hello = this.#hello;
    if (hello && message.ref !== undefined && String(message.ref) === String(hello.ref)) {
      const retry = (details as { retry_after_seconds?: number } | undefined)?.retry_after_seconds;
      if (typeof retry === "number") this.#retryAfterMs = retry * 1000;
      // the server closes the socket next (4401); the close decides what follows
      hello.refusal = { code, message: text, details };
      return;
    }
    const pending = this.#settle(message.ref);
    const match = typeof message.match === "string" || typeof message.match === "number"
      ? String(message.match) : pending?.match ?? null;
    const error = new PlayError("error", code, text, { status, details, match });
    if (pending) pending.reject(error);
    else this.#options.onError?.(error);
  }

  #onMatch(message: MatchPush): void {
    const entry = this.#subscriptions.get(String(message.match));
    if (!entry) return; // unsubscribed meanwhile
    applyPush(entry, message, (error) => this.#options.onError?.(error));
  }

  #onFeedEvent(event: FeedEvent): void {
    if (!event || typeof event.id !== "number" || !this.#feed) return;
    if (this.#lastEventId !== null && event.id <= this.#lastEventId) return; // already delivered
    this.#lastEventId = event.id;
    this.#feed.onEvent(event);
  }
}

function decode(data: unknown): string {
  if (data instanceof ArrayBuffer) return new TextDecoder().decode(data);
  if (ArrayBuffer.isView(data)) return new TextDecoder().decode(data);
  return String(data);
}
