/**
 * A tiny stand-in for the play socket, for the client's unit tests only (the required
 * tests run against the real server: test/server/). It speaks docs/play.md's messages
 * for one match whose moves are numbers, records every message it received, and lets a
 * test close sockets with any code, go silent, or refuse.
 */
import { WebSocketServer, type WebSocket } from "ws";

export interface Received {
  socket: number;
  message: Record<string, any>;
}

export interface FakeOptions {
  heartbeatSeconds?: number;
  /** tokens the server accepts; any other closes 4401 */
  tokens?: string[];
  /** answer moves at all (false: never answer, for timeouts) */
  answerMoves?: boolean;
  /** refuse this many hellos as throttled (then close 4401, as the real server does) */
  throttleHellos?: number;
  /** answer subscribes at all */
  answerSubscribes?: boolean;
}

export class FakePlayServer {
  readonly wss: WebSocketServer;
  readonly received: Received[] = [];
  readonly sockets: WebSocket[] = [];
  /** the match's log: each entry a logged move */
  log: { ply: number; seat: number; move: unknown; events: unknown[]; created_at: string }[] = [];
  feedEvents: { id: number; kind: string; created_at: string }[] = [];
  options: Required<FakeOptions>;
  /** per socket: the matches it subscribed to and the ply last sent */
  private sent = new Map<WebSocket, Map<string, number>>();
  private feeds = new Set<WebSocket>();

  private constructor(wss: WebSocketServer, options: FakeOptions) {
    this.wss = wss;
    this.options = { heartbeatSeconds: 30, tokens: ["good"], answerMoves: true, throttleHellos: 0, answerSubscribes: true,
                     ...options };
    wss.on("connection", (ws) => this.accept(ws));
  }

  static start(options: FakeOptions = {}): Promise<FakePlayServer> {
    return new Promise((resolve) => {
      const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 }, () => {
        resolve(new FakePlayServer(wss, options));
      });
    });
  }

  get url(): string {
    const address = this.wss.address() as { port: number };
    return `ws://127.0.0.1:${address.port}/play/`;
  }

  get ply(): number {
    return this.log.length;
  }

  /** messages of one op, in order */
  ops(op: string): Record<string, any>[] {
    return this.received.filter((r) => r.message.op === op).map((r) => r.message);
  }

  /** wait until a predicate over the received messages holds */
  async until(predicate: () => boolean, timeoutMs = 3000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error("fake server: condition not met in time");
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** another seat's move, pushed to every subscribed socket */
  play(seat = 1, move: unknown = { type: "pass" }): void {
    this.log.push({ ply: this.log.length, seat, move, events: [], created_at: "2026-01-01T00:00:00Z" });
    for (const ws of this.sockets) this.push(ws, "update");
  }

  /** a feed event for every socket that asked for the feed */
  announce(kind = "your_turn"): number {
    const event = { id: this.feedEvents.length + 1, kind, created_at: "2026-01-01T00:00:00Z" };
    this.feedEvents.push(event);
    for (const ws of this.feeds) this.send(ws, { op: "feed_event", event });
    return event.id;
  }

  closeAll(code: number, reason = ""): void {
    for (const ws of this.sockets) if (ws.readyState === ws.OPEN) ws.close(code, reason);
  }

  /** drop every connection without a close frame (a network loss) */
  terminateAll(): void {
    for (const ws of this.sockets) ws.terminate();
  }

  stop(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    return new Promise((resolve) => this.wss.close(() => resolve()));
  }

  send(ws: WebSocket, message: Record<string, unknown>): void {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
  }

  private push(ws: WebSocket, op: "sync" | "update", since?: number, ref?: unknown): void {
    const matches = this.sent.get(ws);
    if (!matches?.has("7")) return;
    const from = since ?? matches.get("7") ?? 0;
    matches.set("7", this.ply);
    this.send(ws, {
      op, match: "7", since: from, ply: this.ply, status: "active", to_act: [this.ply % 2],
      seat: 0, moves: this.log.slice(from), view: { ply: this.ply },
      legal_moves: this.ply % 2 === 0 ? [{ type: "pass" }, { type: "draw" }] : null,
      clocks: [], incidents: [], ...(ref === undefined ? {} : { ref }),
    });
  }

  private accept(ws: WebSocket): void {
    const index = this.sockets.length;
    this.sockets.push(ws);
    this.sent.set(ws, new Map());
    let welcomed = false;
    ws.on("close", () => this.feeds.delete(ws));
    ws.on("message", (data) => {
      const message = JSON.parse(String(data));
      this.received.push({ socket: index, message });
      const ref = message.ref;
      if (!welcomed) {
        if (this.options.throttleHellos > 0) {
          this.options.throttleHellos -= 1;
          this.send(ws, { op: "error", ref, error: { code: "throttled", message: "slow down",
                                                     details: { retry_after_seconds: 0.2 } } });
          ws.close(4401);
          return;
        }
        if (message.token === "crowded") { // the user holds its cap of sockets already
          this.send(ws, { op: "error", ref, error: { code: "too_many_sockets", message: "Too many.",
                                                     details: { max: 10 } } });
          ws.close(4430);
          return;
        }
        if (message.op !== "hello" || !this.options.tokens.includes(message.token)) {
          this.send(ws, { op: "error", ref, error: { code: "not_authenticated", message: "Invalid token.",
                                                     details: { reason: "authentication_failed" } } });
          ws.close(4401);
          return;
        }
        welcomed = true;
        this.send(ws, {
          op: "welcome", user: { id: 1, username: "ann" }, ref,
          heartbeat_seconds: this.options.heartbeatSeconds, max_message_bytes: 1000,
          max_subscriptions: 50,
        });
        return;
      }
      switch (message.op) {
        case "subscribe":
          if (!this.options.answerSubscribes) return;
          if (String(message.match) !== "7") {
            this.send(ws, { op: "error", ref, error: { code: "match_not_found", message: "no such match" } });
            return;
          }
          this.sent.get(ws)!.set("7", message.since ?? 0);
          this.send(ws, { op: "subscribed", match: "7", seat: 0, ref });
          this.push(ws, "sync", message.since ?? 0, ref);
          return;
        case "unsubscribe":
          this.sent.get(ws)!.delete(String(message.match));
          this.send(ws, { op: "unsubscribed", match: String(message.match), ref });
          return;
        case "feed":
          this.feeds.add(ws);
          for (const event of this.feedEvents) {
            if (message.after === undefined || event.id > message.after) {
              this.send(ws, { op: "feed_event", event, ref });
            }
          }
          return;
        case "ping":
          this.send(ws, { op: "pong", ref });
          return;
        case "move":
          if (!this.options.answerMoves) return;
          if (message.expected_ply !== undefined && message.expected_ply !== this.ply) {
            this.send(ws, {
              op: "refused", match: "7", status: 409, ref,
              error: { code: "stale_ply", message: "the match moved on",
                       details: { expected_ply: message.expected_ply, current_ply: this.ply } },
            });
            return;
          }
          this.log.push({ ply: this.ply, seat: 0, move: message.move, events: [],
                          created_at: "2026-01-01T00:00:00Z" });
          this.send(ws, { op: "ack", match: "7", ply: this.ply, ref });
          for (const other of this.sockets) this.push(other, "update");
          return;
        default:
          this.send(ws, { op: "error", ref, error: { code: "unknown_op", message: "no such op" } });
      }
    });
  }
}
