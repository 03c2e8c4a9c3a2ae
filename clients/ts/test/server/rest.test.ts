/**
 * Typed REST against the real server: create, join, get a match, its legal moves, a move,
 * and errors as ApiError with REST's code and status.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { ApiError, createRestClient, unwrap, type MoveOf } from "../../src/index.js";
import { baseUrl, needsServer, rest } from "./support.js";

describe("typed REST", needsServer, () => {
  it("creates, joins and reads a match", async () => {
    const created = unwrap(await rest(0).POST("/api/v1/matches/", {
      body: { game: "han", players: 2 },
    }));
    assert.equal(created.status, "open");
    assert.equal(created.your_seat, 0);
    const joined = unwrap(await rest(1).POST("/api/v1/matches/{match_id}/join/", {
      params: { path: { match_id: created.id } }, body: {},
    }));
    assert.equal(joined.status, "active");
    assert.equal(joined.your_seat, 1);

    const match = unwrap(await rest(0).GET("/api/v1/matches/{match_id}/", {
      params: { path: { match_id: created.id } },
    }));
    assert.equal(match.id, created.id);
    assert.equal(match.ply, 0);
    assert.deepEqual(match.seats.map((seat) => seat.kind), ["human", "human"]);
    assert.ok(match.view, "a seat's view");

    const seat = match.to_act[0]!;
    const legal = unwrap(await rest(seat).GET("/api/v1/matches/{match_id}/legal-moves/", {
      params: { path: { match_id: created.id } },
    }));
    assert.equal(legal.seat, seat);
    const move = legal.moves[0] as MoveOf<"han">;
    assert.ok(["place", "discard", "pass", "draw"].includes(move.type));
    const submitted = unwrap(await rest(seat).POST("/api/v1/matches/{match_id}/moves/", {
      params: { path: { match_id: created.id } }, body: { move, expected_ply: legal.ply },
    }));
    assert.equal(submitted.match.ply, 1);
  });

  it("reads the catalogue without a token", async () => {
    const anonymous = createRestClient({ baseUrl });
    const games = unwrap(await anonymous.GET("/api/v1/games/"));
    assert.deepEqual(games.results.map((game) => game.game).sort(), ["han", "hansa"]);
    assert.equal(games.count, 2);
  });

  it("turns an error into an ApiError with REST's code and status", async () => {
    const missing = await rest(0).GET("/api/v1/matches/{match_id}/", {
      params: { path: { match_id: 987654321 } },
    });
    assert.throws(() => unwrap(missing), (error: unknown) =>
      error instanceof ApiError && error.code === "match_not_found" && error.status === 404);
    const bad = createRestClient({ baseUrl, token: "not-a-token" });
    await assert.rejects(async () => unwrap(await bad.GET("/api/v1/me")), (error: unknown) =>
      error instanceof ApiError && error.code === "not_authenticated" && error.status === 401);
  });
});
