"""Old logs replay the same, for every rules version this service keeps (docs/records.md,
"Rules versions"; issue 40).

tests/rules/corpus holds, per game and rules version, a seeded bot game of every set-up
the version's catalogue allowed, frozen when that version was current: its moves, the
state digest after the deal and after each move, and the final result. Each is replayed
here through ``rules.versions.engine_at``, the door every replay and verification of the
service goes through. So:

- changing what an engine does to any of those logs (a rule, the scoring, the state's
  JSON) without bumping its ``rules_version`` fails here, at the first ply that differs;
- bumping it without keeping the old version runnable fails too: the old corpus no longer
  finds an engine;
- and a new version must ship its own corpus (``make_corpus``), covering every set-up.
"""

from __future__ import annotations

import pytest

from rules import available_games
from rules.versions import engine_at, runnable_versions
from tests.rules.corpus.games import corpus_files, corpus_versions, digest, load
from tests.rules.corpus.make_corpus import file_names, setups

BUILT_IN = ("han", "hansa")
FILES = [path for game, version in corpus_versions() for path in corpus_files(game, version)]


def test_the_corpus_is_there():
    assert {game for game, _version in corpus_versions()} == set(BUILT_IN)
    assert len(FILES) >= 30


@pytest.mark.parametrize("path", FILES, ids=lambda path: f"{path.parent.parent.name}"
                         f"-v{path.parent.name}-{path.stem}")
def test_a_frozen_log_replays_to_the_same_states_and_result(path):
    game = load(path)
    # the folder names the version: a file copied into another version's folder is caught
    assert (game["game"], game["rules_version"]) == (path.parent.parent.name,
                                                     path.parent.name)
    engine = engine_at(game["game"], game["rules_version"])  # UnknownRulesVersion: not kept
    state = engine.setup(game["players"], game["options"], game["seed"])
    assert digest(engine.to_json(state)) == game["initial_state_digest"], "the deal differs"
    for ply, logged in enumerate(game["moves"]):
        assert not engine.is_over(state), f"the game ended before ply {ply}"
        assert logged["seat"] in engine.to_act(state), f"seat {logged['seat']} owed no " \
                                                       f"decision at ply {ply}"
        state, _events = engine.apply(state, logged["seat"], logged["move"])
        assert digest(engine.to_json(state)) == logged["state_digest"], \
            f"the state after ply {ply} differs"
    assert engine.is_over(state), "the log no longer ends the game"
    assert engine.result(state) == game["result"]


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_version_kept_has_a_corpus_of_every_set_up(game):
    """A bumped version ships its corpus, and the current one covers each map, variant
    and player count its catalogue offers."""
    assert game in available_games()
    for version in runnable_versions(game):
        assert corpus_files(game, version), f"{game} version {version} has no corpus: " \
                                            "python -m tests.rules.corpus.make_corpus"
    current = engine_at(game, runnable_versions(game)[0])
    expected = {name for players, options in setups(current)
                for name in file_names(players, options)}
    assert {path.name for path in corpus_files(game, runnable_versions(game)[0])} == expected
