/**
 * The play socket client's options, callbacks and answers (socket.ts), and the WebSocket
 * it drives.
 */
import type { PlayError } from "./errors.js";
import type { GameName } from "./moves.js";
import type { ChatPushMessage, SyncMessage, UpdateMessage, WelcomeMessage } from "./protocol.js";

// -- the WebSocket the client drives: the browser's, `ws` in node, or any look-alike ----

export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: any) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: any) => void) | null;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

// -- options and callbacks -------------------------------------------------------------

export interface CloseInfo {
  code: number;
  reason: string;
}

export interface DisconnectInfo extends CloseInfo {
  /** The client will try again after `delayMs`. */
  willReconnect: boolean;
  delayMs: number | null;
  /** Reconnection attempts since the connection was lost (1 for the first). */
  attempt: number;
}

export interface ReconnectOptions {
  /** First delay (default 250 ms), multiplied by `factor` (2) per failed attempt up to
   * `maxDelayMs` (10 s), each varied by +-`jitter` (0.2) so clients spread out. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  factor?: number;
  jitter?: number;
  /** Give up after this many failed attempts in a row (default: never). */
  maxAttempts?: number;
}

export interface ConnectOptions {
  /** `ws://host/play/`; an `http(s)://host` base URL is turned into `ws(s)://host/play/`. */
  url: string;
  /** An API token, or null (the default) for an anonymous spectator. */
  token?: string | null;
  /** The WebSocket class: the browser's by default, the `ws` package in node. */
  WebSocket?: WebSocketConstructor;
  /** Reconnect after a lost connection (default true). */
  reconnect?: boolean | ReconnectOptions;
  /** How long `hello`, `subscribe`, `unsubscribe` and `ping` wait (default 10 s). */
  timeoutMs?: number;
  /** How long a move waits for its `ack` or `refused` (default 10 s). */
  moveTimeoutMs?: number;
  /** No message at all in this long means the connection is dead (default 2.5 x the
   * server's heartbeat_seconds; 0 turns the check off). */
  heartbeatTimeoutMs?: number;
  /** The token was refused or revoked (close 4401): the client is closed, sign in again. */
  onAuthLost?: (info: CloseInfo) => void;
  /** The connection was lost; `willReconnect` says what happens next. */
  onDisconnect?: (info: DisconnectInfo) => void;
  /** A new connection is up and the subscriptions and the feed are being resumed. */
  onReconnect?: (welcome: WelcomeMessage) => void;
  /** The client is closed for good (by `close()`, 4401, 1000, or when it gave up). */
  onClose?: (info: CloseInfo) => void;
  /** An error that answers no pending request: a server `error` without `ref`, a late
   * refusal of a move that timed out, a subscription lost at a resync, a gap in plies. */
  onError?: (error: PlayError) => void;
}

export interface SubscriptionHandlers<G extends GameName = GameName> {
  /** The match as you may see it now: after `subscribe`, and after each reconnect
   * (`resync: true`, its `moves` exactly the moves missed since the last ply you held). */
  onSync?: (sync: SyncMessage<G>, info: { resync: boolean }) => void;
  /** Every change: new moves (those since the previous message), view, legal moves. */
  onUpdate?: (update: UpdateMessage<G>) => void;
  /** A message of one of the match's chat rooms you may read (docs/chat.md), and the
   * same message again when its author deletes it (`deleted: true`, empty `text`). */
  onChat?: (message: ChatPushMessage) => void;
  /** The subscription ended on the server's word (refused at a resync). */
  onError?: (error: PlayError) => void;
}

export interface SubscribeOptions {
  /** The last ply you already hold (from REST, say): the first `sync` carries only the
   * moves after it. */
  since?: number;
  /** How long to wait for the server's answer (default: the client's `timeoutMs`). */
  timeoutMs?: number;
}

export interface MoveOptions {
  /** The ply you chose the move at. Default: the last ply this client was sent for the
   * match (when subscribed); `null` sends none (no check). */
  expectedPly?: number | null;
  /** Default: the client's `moveTimeoutMs`. */
  timeoutMs?: number;
}

export interface Ack {
  match: string;
  /** The ply after your move. */
  ply: number;
}

export interface ChatOptions {
  /** Default: the client's `timeoutMs`. */
  timeoutMs?: number;
}

export type ClientState = "connecting" | "open" | "reconnecting" | "closed";
