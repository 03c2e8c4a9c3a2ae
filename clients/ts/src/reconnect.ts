/**
 * When the play socket client tries again (socket.ts): which closes it reconnects after,
 * how long it waits, and what an attempt that ended before `welcome` means.
 */
import { PlayError } from "./errors.js";
import type { CloseInfo, ReconnectOptions } from "./socket-options.js";

/** Close codes after which the client reconnects and resyncs (docs/play.md): going
 * away, an abnormal closure (network loss), a server error, service restart / try
 * again later, and 4408 (fell behind). */
export const RECONNECT_CODES = new Set([1001, 1005, 1006, 1011, 1012, 1013, 1014, 4408]);
export const UNAUTHORIZED = 4401;
/** Too many open sockets (docs/play.md "Limits"): the user's cap at hello, the address's
 * at the handshake. Not a token refusal: a later attempt may find a place free. */
export const TOO_MANY_SOCKETS = 4430;

/** The server's `error` answering `hello`, if any (the close follows). */
export interface HelloRefusal {
  code: string;
  message: string;
  details: unknown;
}

/** The wait before reconnection attempt `attempt` (1 for the first): exponential
 * back-off with jitter, never shorter than a throttled hello's `retry_after`. */
export function reconnectDelay(settings: ReconnectOptions, attempt: number,
                               retryAfterMs: number): number {
  const initial = settings.initialDelayMs ?? 250;
  const factor = settings.factor ?? 2;
  const maxDelay = settings.maxDelayMs ?? 10_000;
  const jitter = settings.jitter ?? 0.2;
  const base = Math.min(maxDelay, initial * factor ** (attempt - 1));
  return Math.max(retryAfterMs, Math.round(base * (1 + jitter * (2 * Math.random() - 1))));
}

/** Hello refusals that say nothing about the token: the next attempt may succeed. */
const TRANSIENT_REFUSALS: Readonly<Record<string, number>> = {
  throttled: 429, database_unavailable: 503, service_unavailable: 503, server_error: 500,
  internal_error: 500,
};

/** Why an attempt ended before `welcome`. A 4401 close means the token was refused (kind
 * `closed`, code `not_authenticated`, status 401: no retry), unless the server's `error`
 * before it named a passing refusal (`throttled`, `database_unavailable`): then the
 * attempt failed like a lost connection and the client retries. */
export function helloFailure(url: string, info: CloseInfo,
                      refusal: HelloRefusal | undefined): PlayError {
  if (refusal && refusal.code in TRANSIENT_REFUSALS) {
    return new PlayError("disconnected", refusal.code, refusal.message,
      { status: TRANSIENT_REFUSALS[refusal.code], details: refusal.details });
  }
  if (info.code === TOO_MANY_SOCKETS || refusal?.code === "too_many_sockets") {
    return new PlayError("disconnected", "too_many_sockets",
      refusal?.message ?? `too many sockets are open (${info.code} ${info.reason})`.trim(),
      { status: 429, details: refusal?.details ?? info });
  }
  if (info.code === UNAUTHORIZED || refusal) {
    return new PlayError("closed", "not_authenticated",
      refusal?.message ?? `the server refused the token (${info.code} ${info.reason})`.trim(),
      { status: 401, details: refusal?.details ?? info });
  }
  return new PlayError("disconnected", "connection_failed",
    `the connection to ${url} closed before welcome (${info.code} ${info.reason})`.trim(),
    { details: info });
}
