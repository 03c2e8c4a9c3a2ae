/**
 * Errors of the client. Every error the service reports has REST's shape,
 * `{"code", "message", "details"}` with a stable `code` (docs/api.md "Errors"); the client
 * carries it in {@link ApiError} (REST) and {@link PlayError} (the play socket), with the
 * HTTP status REST gives for it. Switch on `code`, show `message`.
 */

/** The body of every error the service sends (`{"error": ...}` over REST). */
export interface ErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

/** An error the service answered with over REST. */
export class ApiError extends Error {
  override name = "ApiError";
  /** REST's stable code: `stale_ply`, `not_your_turn`, `match_not_found`... */
  readonly code: string;
  /** The HTTP status REST answers with this code (409 for `stale_ply`...), or null
   * when none applies (a timeout, a lost connection). */
  readonly status: number | null;
  readonly details: unknown;

  constructor(code: string, message: string, status: number | null, details?: unknown) {
    super(message);
    this.code = code;
    this.status = status;
    this.details = details ?? {};
  }

  /** From a REST error response's body (or anything else a failed request gave). */
  static fromResponse(status: number, body: unknown): ApiError {
    const error = (body as { error?: Partial<ErrorBody> } | undefined)?.error;
    if (error && typeof error.code === "string") {
      return new ApiError(error.code, error.message ?? error.code, status, error.details);
    }
    return new ApiError("http_error", `HTTP ${status}`, status, { body });
  }
}

/**
 * Why a play-socket request failed:
 * - `refused`: the server refused the move (`refused`), with REST's code and status;
 * - `error`: the server could not handle the message (`error`: `malformed_message`,
 *   `throttled`, `authentication_required`, `match_not_found`...);
 * - `timeout`: no answer in time. A move may still have been committed: the match's
 *   next `update` (or the resync after a reconnect) tells;
 * - `disconnected`: the connection was lost (or was not open) before the answer. Never
 *   re-sent by the client: a move may have been committed; the resync tells;
 * - `closed`: the client was closed, or the server closed it for good (4401);
 * - `protocol`: the server broke the protocol (a gap in the plies of a match).
 */
export type PlayErrorKind = "refused" | "error" | "timeout" | "disconnected" | "closed" | "protocol";

/** A failed play-socket request, or an error message of the server. */
export class PlayError extends ApiError {
  override name = "PlayError";
  readonly kind: PlayErrorKind;
  /** The match it concerns, when it concerns one. */
  readonly match: string | null;

  constructor(kind: PlayErrorKind, code: string, message: string,
              options: { status?: number | null; details?: unknown; match?: string | null } = {}) {
    super(code, message, options.status ?? null, options.details);
    this.kind = kind;
    this.match = options.match ?? null;
  }
}
