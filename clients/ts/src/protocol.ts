/**
 * The play socket's messages (docs/play.md): what the client sends and what the server
 * answers or pushes. Pieces the REST schema already defines (a logged move, a clock, an
 * incident, a match status) are the generated OpenAPI types.
 */
import type { components } from "./generated/schema.js";
import type { GameName, MoveOf } from "./moves.js";

type Schemas = components["schemas"];

/** A match id: a string of digits (numbers are accepted when sending). */
export type MatchId = string | number;
/** Any client message may carry a `ref`, echoed by every answer to it. */
export type Ref = string | number;

export type LoggedMove = Schemas["LoggedMove"];
export type Clock = Schemas["Clock"];
export type Incident = Schemas["Incident"];
export type MatchStatus = Schemas["StatusEnum"];
/** A chat message as the room lists it (REST's `ChatMessage`). */
export type ChatMessage = Schemas["ChatMessage"];
/** The players' or the spectators' room of a match. */
export type ChatRoom = "players" | "spectators";

// -- from the client -----------------------------------------------------------------
export interface HelloMessage {
  op: "hello"; token: string | null;
  /** The language of this socket's messages: "en" (default) or "de"; codes never change. */
  lang?: string;
  ref?: Ref;
}
export interface SubscribeMessage { op: "subscribe"; match: string; since?: number; ref?: Ref }
export interface UnsubscribeMessage { op: "unsubscribe"; match: string; ref?: Ref }
export interface FeedMessage { op: "feed"; after?: number; ref?: Ref }
export interface MoveMessage {
  op: "move"; match: string; move: MoveOf; expected_ply?: number; ref?: Ref;
}
export interface PingMessage { op: "ping"; ref?: Ref }
/** A chat message to a room of a match (docs/chat.md): `ack` after the commit or `refused`. */
export interface ChatSendMessage {
  op: "chat"; match: string; room: ChatRoom; text: string; ref?: Ref;
}
export type ClientMessage =
  | HelloMessage | SubscribeMessage | UnsubscribeMessage | FeedMessage | MoveMessage
  | ChatSendMessage | PingMessage;

// -- from the server -----------------------------------------------------------------
export interface PlayUser { id: number; username: string }

export interface WelcomeMessage {
  op: "welcome";
  /** The signed-in user, or null on an anonymous (spectator) socket. */
  user: PlayUser | null;
  /** The language of this socket's messages (the handshake's or hello's choice). */
  lang: string;
  /** The server sends something (a ping if nothing else) at least every this many seconds. */
  heartbeat_seconds: number;
  max_message_bytes: number;
  max_subscriptions: number;
  ref?: Ref;
}

export interface SubscribedMessage { op: "subscribed"; match: string; seat: number | null; ref?: Ref }
export interface UnsubscribedMessage { op: "unsubscribed"; match: string; ref?: Ref }

/**
 * The match as the reader may see it: `sync` after a `subscribe`, `update` after every
 * change. `moves` are the moves from ply `since` up to `ply` (redacted for the reader);
 * `since` equals the `ply` of the previous message of this match on the socket.
 */
export interface MatchPush<G extends GameName = GameName> {
  op: "sync" | "update";
  match: string;
  since: number;
  ply: number;
  status: MatchStatus;
  to_act: number[];
  /** The reader's seat, or null for a spectator. */
  seat: number | null;
  /** The seats, as in REST's match (sent by the server though docs/play.md does not list it). */
  seats?: Schemas["Seat"][];
  moves: LoggedMove[];
  /** engine.view for the reader's seat (or the spectator's): the game's README. */
  view: unknown;
  /** The reader's legal moves when its seat owes a decision now, else null. */
  legal_moves: MoveOf<G>[] | null;
  clocks: Clock[];
  incidents: Incident[];
  ref?: Ref;
}
export interface SyncMessage<G extends GameName = GameName> extends MatchPush<G> { op: "sync" }
export interface UpdateMessage<G extends GameName = GameName> extends MatchPush<G> { op: "update" }

/** One event of the user's feed, as a line of `GET /api/v1/stream/` (docs/feed.md). */
export interface FeedEvent {
  id: number;
  kind: "your_turn" | "match_started" | "match_finished" | "invitation_received" | "matched" | string;
  created_at: string;
  [field: string]: unknown;
}
export interface FeedEventMessage { op: "feed_event"; event: FeedEvent; ref?: Ref }

export interface AckMessage {
  op: "ack"; match: string; ply: number;
  /** A chat message's ack only: the message as the room lists it. */
  message?: ChatMessage;
  ref?: Ref;
}
/** A message of a subscribed match's chat room you may read; again when deleted. */
export interface ChatPushMessage extends ChatMessage { op: "chat" }
export interface RefusedMessage {
  op: "refused";
  match: string;
  /** The HTTP status REST would answer. */
  status: number;
  error: { code: string; message: string; details?: unknown };
  ref?: Ref;
}
export interface PongMessage { op: "pong"; ref?: Ref }
export interface ServerPingMessage { op: "ping" }
export interface ErrorMessage {
  op: "error";
  error: { code: string; message: string; details?: unknown };
  ref?: Ref;
  [field: string]: unknown;
}

export type ServerMessage =
  | WelcomeMessage | SubscribedMessage | UnsubscribedMessage | SyncMessage | UpdateMessage
  | FeedEventMessage | ChatPushMessage | AckMessage | RefusedMessage | PongMessage
  | ServerPingMessage | ErrorMessage;

/** Close codes of the play socket (docs/play.md "Close codes"). */
export const CloseCode = {
  normal: 1000,
  goingAway: 1001,
  abnormal: 1006,
  serverError: 1011,
  unauthorized: 4401,
  tooSlow: 4408,
  /** went on sending after `throttled` for its message rate */
  flooding: 4429,
  /** too many open sockets (the user's or the address's cap): `too_many_sockets` */
  tooManySockets: 4430,
} as const;
