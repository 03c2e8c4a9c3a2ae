/**
 * @hanhansa/client: the official TypeScript client of the Han and The Queen of Hansa
 * game service.
 *
 * - {@link createRestClient}: typed REST under `/api/v1/` (openapi-fetch over the types
 *   generated from the OpenAPI schema), {@link unwrap} to get the body or an {@link ApiError};
 * - {@link connect}: the play socket (`/play/`): subscribe, move with ack, chat, feed,
 *   reconnect with resync;
 * - {@link createPkceSignIn}: a third-party page signs a player in with OAuth 2 and
 *   PKCE (start, callback, refresh, sign out);
 * - move types per game: `MoveOf<"han">`, `HansaTradeMove`...
 */
export { ApiError, PlayError } from "./errors.js";
export type { ErrorBody, PlayErrorKind } from "./errors.js";
export { authorizationScheme, createRestClient, unwrap } from "./rest.js";
export { base64url, createPkceSignIn, makePkcePair, OAuthError, PkceSignIn } from "./oauth.js";
export type { OAuthTokens, PkceSignInOptions, StorageLike } from "./oauth.js";
export type { RestClient, RestClientOptions, Schemas, components, operations, paths } from "./rest.js";
export { connect, playUrl, PlayClient, Subscription } from "./socket.js";
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
} from "./socket.js";
export { CloseCode } from "./protocol.js";
export type * from "./protocol.js";
export * from "./moves.js";
