/**
 * The play socket client's requests waiting for their answer (socket.ts), by `ref`.
 */
import { PlayError } from "./errors.js";
import type { Ref } from "./protocol.js";

export interface Pending {
  kind: "move" | "chat" | "ping" | "subscribe" | "unsubscribe";
  match: string | null;
  resolve: (value: any) => void;
  reject: (error: PlayError) => void;
  timer: ReturnType<typeof setTimeout> | null;
  sentAt: number;
}

export class PendingRequests {
  #byRef = new Map<string, Pending>();

  add(ref: string, pending: Pending): void {
    this.#byRef.set(ref, pending);
  }

  /** Forget a timed-out request (its late answer then settles nothing). */
  forget(ref: string): void {
    this.#byRef.delete(ref);
  }

  /** The request answered by a frame with this `ref`, taken out (its timer stopped). */
  settle(ref: Ref | undefined): Pending | undefined {
    if (ref === undefined) return undefined;
    const key = String(ref);
    const pending = this.#byRef.get(key);
    if (!pending) return undefined;
    this.#byRef.delete(key);
    if (pending.timer) clearTimeout(pending.timer);
    return pending;
  }

  /** Every request ends: rejected, except that a lost connection leaves subscriptions to
   * the next one and counts an unsubscribe as done. */
  rejectAll(kind: PlayError["kind"], code: string, message: string,
            status: number | null = null): void {
    const pending = [...this.#byRef.values()];
    this.#byRef.clear();
    for (const entry of pending) {
      if (entry.timer) clearTimeout(entry.timer);
      // a subscription waiting for its answer is resumed by the next connection
      if (entry.kind === "subscribe" && kind === "disconnected") continue;
      if (entry.kind === "unsubscribe" && kind === "disconnected") {
        entry.resolve(undefined); // the next connection does not subscribe it again
        continue;
      }
      entry.reject(new PlayError(kind, code, message, { status, match: entry.match }));
    }
  }
}
