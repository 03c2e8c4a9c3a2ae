/**
 * The types are checked when this file compiles (`npm run build:test` fails otherwise):
 * moves are typed per game from the OpenAPI schema's move components, REST paths and
 * bodies from its paths. Each `@ts-expect-error` line must be an error.
 */
import assert from "node:assert/strict";
import { it } from "node:test";

import {
  createRestClient,
  GAMES,
  type HanPlaceMove,
  type MoveOf,
  type MoveOfType,
  type MoveTypeOf,
  type PlayClient,
  type Schemas,
} from "../../src/index.js";

const place: HanPlaceMove = { type: "place", cards: ["red"], pieces: [{ kind: "house", space: "s1" }] };
const draw: MoveOf<"han"> = { type: "draw", from: "pile" };
// @ts-expect-error: a Hansa move type is not a Han move
const wrongGame: MoveOf<"han"> = { type: "keep", cards: [] };
// @ts-expect-error: a colour the schema does not list
const wrongColour: MoveOf<"han"> = { type: "place", cards: ["pink"], pieces: [] };
const types: MoveTypeOf<"han">[] = ["place", "discard", "pass", "draw"];
const trade: MoveOfType<"hansa", "trade">["type"] = "trade";

async function typedRest(): Promise<void> {
  const api = createRestClient({ baseUrl: "http://127.0.0.1:1" });
  // @ts-expect-error: players is required
  void api.POST("/api/v1/matches/", { body: { game: "han" } });
  // @ts-expect-error: no such path
  void api.GET("/api/v1/nowhere/");
  const { data } = await api.GET("/api/v1/matches/{match_id}/", { params: { path: { match_id: 1 } } });
  const status: Schemas["StatusEnum"] | undefined = data?.status;
  void status;
}

async function typedSocket(play: PlayClient): Promise<void> {
  const match = await play.subscribe<"hansa">("1", {
    onUpdate: (update) => {
      const first: MoveOf<"hansa"> | undefined = update.legal_moves?.[0];
      void first;
    },
  });
  // @ts-expect-error: a Han move on a Hansa subscription
  void match.move({ type: "draw", from: "pile" });
}

it("exports the games the types were generated for", () => {
  assert.deepEqual([...GAMES], ["han", "hansa"]);
  assert.ok(place && draw && wrongGame && wrongColour && types.length === 4 && trade);
  assert.equal(typeof typedRest, "function");
  assert.equal(typeof typedSocket, "function");
});
