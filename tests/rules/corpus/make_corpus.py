"""Write the corpus of a game's current rules version: one seeded bot game for every
set-up its catalogue allows (each map, variant and player count), with the state digest
after the deal and after every move and the engine's final result.

    .venv/bin/python -m tests.rules.corpus.make_corpus han

Run it once when a version becomes current (a new game, or a bumped ``rules_version``);
it refuses to touch a version that already has a corpus: that one is frozen.
"""

from __future__ import annotations

import itertools
import json
import sys

from rules import InvalidOptions, get_engine
from rules.bots.registry import choose_bot_move
from tests.rules.corpus.games import digest, version_folder

#: two games per set-up, each named by who plays: greedy bots only (games as people play
#: them), and greedy and random by turns of seat (odd moves, rare paths)
LINE_UPS = {"greedy": ("greedy",), "mixed": ("greedy", "random")}


def setups(engine) -> list[tuple[int, dict]]:
    """Every ``(players, options)`` the catalogue allows: each enum and boolean option's
    values crossed with each player count; combinations the engine refuses left out."""
    described = engine.describe()
    choices = {}
    for name, schema in described["options"].get("properties", {}).items():
        if "enum" in schema:
            choices[name] = list(schema["enum"])
        elif schema.get("type") == "boolean":
            choices[name] = [False, True]
    found = []
    for players in range(described["players"]["min"], described["players"]["max"] + 1):
        for values in itertools.product(*choices.values()):
            options = dict(zip(choices, values, strict=True))
            try:
                found.append((players, engine.normalize_options(players, options)))
            except InvalidOptions:
                continue
    return found


def play(engine, players: int, options: dict, seed: str, line_up: tuple[str, ...]) -> dict:
    state = engine.setup(players, options, seed)
    game = {"game": engine.name, "rules_version": str(engine.rules_version),
            "players": players, "options": options, "seed": seed,
            "bots": [line_up[seat % len(line_up)] for seat in range(players)],
            "initial_state_digest": digest(engine.to_json(state)), "moves": []}
    ply = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        move = choose_bot_move(game["bots"][seat], engine, engine.view(state, seat),
                               engine.legal_moves(state, seat), seat, match_key=seed, ply=ply)
        state, _events = engine.apply(state, seat, move)
        game["moves"].append({"seat": seat, "move": move,
                              "state_digest": digest(engine.to_json(state))})
        ply += 1
    game["result"] = engine.result(state)
    return game


def file_names(players: int, options: dict) -> list[str]:
    """The set-up's files, one per line-up."""
    parts = [f"{players}p", *(f"{key}-{str(value).lower()}" for key, value in
                              sorted(options.items()))]
    return ["_".join([*parts, line_up]) + ".json" for line_up in LINE_UPS]


def write_corpus(game: str) -> None:
    engine = get_engine(game)
    folder = version_folder(game, str(engine.rules_version))
    if folder.exists():
        sys.exit(f"{folder} exists: a version's corpus is frozen once written")
    folder.mkdir(parents=True)
    for players, options in setups(engine):
        for name, line_up in zip(file_names(players, options), LINE_UPS.values(),
                                 strict=True):
            played = play(engine, players, options, f"corpus:{game}:{name}", line_up)
            (folder / name).write_text(json.dumps(played, sort_keys=True,
                                              separators=(",", ":")) + "\n",
                                   encoding="utf-8")
            print(f"{game}/{folder.name}/{name}: {len(played['moves'])} moves")


if __name__ == "__main__":
    for each in sys.argv[1:] or ["han", "hansa"]:
        write_corpus(each)
