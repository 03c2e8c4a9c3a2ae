/**
 * Moves, typed per game. The types come from the OpenAPI schema's `Move` components
 * (each engine's `move_schema()`: one component per move type, discriminated by `type`),
 * generated into `generated/moves.ts` by `npm run generate`.
 *
 * ```ts
 * const move: MoveOf<"han"> = { type: "draw" };
 * ```
 */
import type { MovesByGame } from "./generated/moves.js";

export * from "./generated/moves.js";

/** A game's registry key: `"han"`, `"hansa"`. */
export type GameName = keyof MovesByGame;

/** A move of game `G`; `MoveOf` (any game) when the game is not known. */
export type MoveOf<G extends GameName = GameName> = MovesByGame[G];

/** Any game's move (the schema's `Move`). */
export type AnyMove = MoveOf<GameName>;

/** The `type` names of game `G`'s moves: `"place" | "discard" | ...`. */
export type MoveTypeOf<G extends GameName = GameName> = MoveOf<G>["type"];

/** The move of game `G` whose `type` is `T`. */
export type MoveOfType<G extends GameName, T extends MoveTypeOf<G>> = Extract<MoveOf<G>, { type: T }>;
