"""Verifying a game record: does the stated result follow from the seed and the moves?

``verify_record`` writes nothing; it re-deals the game from the record's seed and options
and re-plays every move through the engine, and every incident with them
(games/records/incidents.py), as anyone holding the record could. A record that cannot
be read at all is InvalidRecord (400, ``details.field`` names the part); a record that
reads is answered with a verdict: valid, or the first ply where it diverges and why.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

from django.utils.translation import gettext as _

from games.matches import errors
from games.matches.incidents import IncidentKind
from games.matches.outcome import final_result
from games.matches.seeds import seed_commitment
from games.matches.setup_checks import engine_for, match_options, player_count
from games.matches.time_controls import NONE, REALTIME, TIMEOUT_POLICIES, TURN_BASED
from games.records import signing
from games.records.format import (
    FORMAT_NAME,
    FORMAT_VERSION,
    MAX_RECORD_MOVES,
    MAX_SEED_LENGTH,
    normalized_json,
    state_digest,
)
from games.records.incidents import IncidentReplay
from infra.numbers import whole_number
from infra.translation import message_of
from rules import IllegalMove
from rules.versions import UnknownRulesVersion, engine_at, runnable_versions

logger = logging.getLogger(__name__)

_HEX64 = frozenset("0123456789abcdef")


def _bad(field: str, message: str, **details) -> errors.InvalidRecord:
    return errors.InvalidRecord(message, details={"field": field, **details})


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _digest_or_none(field: str, value: Any) -> str | None:
    if value is None:
        return None
    if not (isinstance(value, str) and len(value) == 64 and set(value) <= _HEX64):
        raise _bad(field, _("%(field)s must be 64 lowercase hex digits (SHA-256).")
                   % {"field": field})
    return value


def _int_list(value: Any, field: str, players: int) -> list[int]:
    if not (isinstance(value, list) and len(value) == players and all(map(_is_int, value))):
        raise _bad(field, _("%(field)s must be a list of %(players)s whole numbers.")
                   % {"field": field, "players": players})
    return value


def _seat_list(value: Any, field: str, players: int) -> list[int]:
    if not (isinstance(value, list) and len(value) <= MAX_RECORD_MOVES
            and all(_is_int(seat) and 0 <= seat < players for seat in value)):
        raise _bad(field, _("%(field)s must be a list of seats of the match.") % {"field": field})
    return value


def _time_control(value: Any) -> dict | None:
    """The record's clock as verification reads it (``kind``, ``timeout_policy``); None
    when the record does not say (one exported before the field existed)."""
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("kind", NONE) not in (NONE, REALTIME,
                                                                    TURN_BASED) \
            or value.get("timeout_policy", TIMEOUT_POLICIES[0]) not in TIMEOUT_POLICIES:
        raise _bad("time_control", _("time_control must be an object with a kind (none, "
                                     "realtime, turn_based) and a timeout_policy "
                                     "(%(policies)s).")
                   % {"policies": ", ".join(TIMEOUT_POLICIES)})
    return value


def _verdict(valid: bool, ply: int | None, reason: str | None, message: str,
             plies_checked: int, computed: dict | None) -> dict:
    return {"valid": valid, "diverges_at_ply": ply, "reason": reason, "message": message,
            "plies_checked": plies_checked, "computed_result": computed}


def parse_record(record: Any) -> dict:
    """The parts of ``record`` verification needs, checked for shape only (types, sizes,
    the game and rules version this service can replay). Raises InvalidRecord (400),
    UnknownGame (400)."""
    if not isinstance(record, dict):
        raise _bad("record", _("A record must be a JSON object."))
    if record.get("format") != FORMAT_NAME:
        raise _bad("format", _('format must be "%(format)s".') % {"format": FORMAT_NAME})
    if record.get("format_version") != FORMAT_VERSION:
        raise _bad("format_version", _("Only format_version %(version)s is known.")
                   % {"version": FORMAT_VERSION},
                   supported=[FORMAT_VERSION])
    game = record.get("game")
    engine_for(game, unknown_status=400, field="game")
    # The record is replayed under the rules it was played under (rules/versions.py); a
    # version no engine here plays may replay differently: we cannot judge it.
    rules_version = record.get("rules_version")
    try:
        if not isinstance(rules_version, str):
            raise UnknownRulesVersion(game, str(rules_version), runnable_versions(game))
        engine = engine_at(game, rules_version)
    except UnknownRulesVersion as exc:
        raise _bad("rules_version", _("This service replays %(game)s rules version "
                                      "%(version)s only.")
                   % {"game": game, "version": ", ".join(exc.runnable)},
                   supported=exc.runnable) from None
    described = engine.describe()
    # create_match's checks (games/matches/setup_checks.py), answered as invalid_record
    try:
        players = player_count(record.get("players"), described)
    except errors.InvalidPlayerCount:
        limits = described.get("players", {})
        raise _bad("players", _("players must be from %(min)s to %(max)s.")
                   % {"min": limits.get("min"), "max": limits.get("max")}) from None
    options = record.get("options", {})
    if not isinstance(options, dict):  # a record states its options, null included
        raise _bad("options", _("options must be a JSON object."))
    try:
        options = match_options(engine, players, options)
    except errors.InvalidOptions as exc:
        # the engine's code: in details for InvalidOptions, the code of InvalidPlayerCount
        reason = exc.details.get("reason") or (
            exc.code if isinstance(exc, errors.InvalidPlayerCount) else None)
        raise _bad("options", exc.message, **({"reason": reason} if reason else {})) from None
    seed = record.get("seed")
    if not isinstance(seed, str) or not 0 < len(seed) <= MAX_SEED_LENGTH or "\x00" in seed:
        raise _bad("seed", _("seed must be a non-empty string of at most %(count)s characters.")
                   % {"count": MAX_SEED_LENGTH})
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise _bad("moves", _("moves must be a list."))
    if len(moves) > MAX_RECORD_MOVES:
        raise _bad("moves", _("A record may hold at most %(count)s moves.")
                   % {"count": MAX_RECORD_MOVES},
                   max=MAX_RECORD_MOVES)
    parsed_moves = []
    for index, entry in enumerate(moves):
        where = f"moves[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("move"), dict):
            raise _bad(where, _("%(where)s must be an object with a move object.")
                       % {"where": where})
        seat = whole_number(entry.get("seat"))
        if seat is None or not 0 <= seat < players:
            raise _bad(where, _("%(where)s.seat must be a seat of the match.") % {"where": where})
        if "ply" in entry and entry["ply"] != index:
            raise _bad(where, _("%(where)s.ply must be %(index)s: moves are listed in ply order.")
                       % {"where": where, "index": index})
        digest = _digest_or_none(f"{where}.state_digest", entry.get("state_digest"))
        parsed_moves.append((seat, entry["move"], digest))
    incidents = record.get("incidents", [])
    if not isinstance(incidents, list) or len(incidents) > MAX_RECORD_MOVES:
        raise _bad("incidents", _("incidents must be a list."))
    parsed_incidents = []
    for index, entry in enumerate(incidents):
        where = f"incidents[{index}]"
        seat = whole_number(entry.get("seat")) if isinstance(entry, dict) else None
        ply = whole_number(entry.get("ply")) if isinstance(entry, dict) else None
        if seat is None or not 0 <= seat < players or ply is None or \
                not 0 <= ply <= len(moves) or entry.get("kind") not in IncidentKind.values:
            raise _bad(where, _('%(where)s must be {"ply", "seat", "kind"} with a seat of the '
                                'match, a ply of the log and one of %(kinds)s.')
                       % {"where": where, "kinds": ", ".join(IncidentKind.values)})
        parsed_incidents.append(SimpleNamespace(ply=ply, seat=seat, kind=entry["kind"]))
    result = record.get("result")
    if not isinstance(result, dict):
        raise _bad("result", _("result must be an object with scores and ranks."))
    stated = {
        "scores": _int_list(result.get("scores"), "result.scores", players),
        "ranks": _int_list(result.get("ranks"), "result.ranks", players),
    }
    for optional in ("winners", "breakdown"):
        if optional in result:
            stated[optional] = result[optional]
    for incidents_made in ("forfeits", "timeouts"):  # optional: older records lack them
        if incidents_made in result:
            stated[incidents_made] = _seat_list(result[incidents_made],
                                                f"result.{incidents_made}", players)
    commitment = record.get("seed_commitment")
    if commitment is not None:
        _digest_or_none("seed_commitment", commitment)
    return {
        "engine": engine, "players": players, "options": options, "seed": seed,
        "seed_commitment": commitment,
        "initial_state_digest": _digest_or_none("initial_state_digest",
                                                record.get("initial_state_digest")),
        "moves": parsed_moves, "incidents": parsed_incidents, "result": stated,
        "time_control": _time_control(record.get("time_control")),
    }


def _signature(value: Any) -> tuple[str, bytes] | None:
    """The key id and the 64 bytes of a record's ``signature``; None when it has none.
    Raises InvalidRecord for one that is not ``{"key_id", "algorithm", "value"}``."""
    if value is None:
        return None
    raw = signing.decoded_signature(value.get("value")) if isinstance(value, dict) else None
    key_id = value.get("key_id") if isinstance(value, dict) else None
    if raw is None or value.get("algorithm") != signing.ALGORITHM \
            or not isinstance(key_id, str) or not 0 < len(key_id) <= 64:
        raise _bad("signature", _('signature must be {"key_id", "algorithm": "Ed25519", '
                                  '"value"}, the value the base64 of 64 bytes.'))
    return key_id, raw


#: the verdict's reason when the replay passes but the signature does not
SIGNATURE_FAILURES = {signing.UNKNOWN_KEY: "signature_unknown_key",
                      signing.MISMATCH: "signature_mismatch"}


def verify_record(record: Any) -> dict:
    """Check ``record``'s signature and re-simulate it: ``{"valid", "diverges_at_ply",
    "reason", "message", "plies_checked", "computed_result", "signature"}``.

    ``signature`` is ``valid`` (by a key this service publishes), ``absent`` (the replay
    alone vouches for the record), ``unknown_key`` or ``mismatch`` (either makes the record
    invalid), or ``unchecked``: the replay runs first, and a record it refuses is invalid
    whatever its signature, so its signature is not checked. That keeps a verification's
    work what it was: encoding a record to check its signature costs about a tenth of
    replaying it, and a replay that passes has a real game's moves, not 5,000 of junk
    (docs/capacity.md). ``diverges_at_ply`` is the first ply whose replay
    disagrees with the record: 0 for the deal (a changed seed or options), k for the move
    at ply k (refused, or leading to another state than recorded), the number of moves for
    the end (the game is not over, or its result is not the stated one); null when only
    the signature fails. Raises InvalidRecord, UnknownGame (400) for a record that cannot
    be read."""
    parsed = parse_record(record)
    signature = _signature(record.get("signature"))
    verdict = _replayed(parsed)
    if signature is None:
        status = signing.ABSENT
    elif not verdict["valid"]:
        status = signing.UNCHECKED
    else:
        status = signing.check(record, *signature)
    verdict["signature"] = status
    if status in SIGNATURE_FAILURES:
        if status == signing.UNKNOWN_KEY:
            message = _("The record is signed by key %(key_id)s, which this service does "
                        "not publish (GET /api/v1/records/keys/).") % {"key_id": signature[0]}
        else:
            message = _("The signature does not cover this record: a signed part (the "
                        "deal, a move, an incident, the result or the match id) is not the "
                        "one the service signed.")
        verdict.update(valid=False, diverges_at_ply=None, reason=SIGNATURE_FAILURES[status],
                       message=message)
    return verdict


def _replayed(parsed: dict) -> dict:
    """The replay's verdict on a parsed record (``verify_record`` without the
    signature)."""
    engine = parsed["engine"]
    seed = parsed["seed"]
    if parsed["seed_commitment"] is not None:
        if seed_commitment(seed) != parsed["seed_commitment"]:
            return _verdict(False, 0, "seed_commitment_mismatch",
                            _("The seed does not hash to the stated seed_commitment."), 0, None)
    state = engine.setup(parsed["players"], parsed["options"], seed)
    expected = parsed["initial_state_digest"]
    if expected is not None and state_digest(engine.to_json(state)) != expected:
        return _verdict(False, 0, "state_mismatch",
                        _("The deal from this seed and these options is not the recorded one."),
                        0, None)
    incidents = IncidentReplay(engine, parsed["players"], parsed["incidents"],
                               parsed["time_control"])
    for ply, (seat, move, expected) in enumerate(parsed["moves"]):
        if (impossible := incidents.happen(ply, state)) is not None:
            return _verdict(False, ply, "impossible_incident", impossible, ply, None)
        if incidents.match_ended:
            return _verdict(False, ply, "game_over",
                            _("The match ended at ply %(ply)s (every seat but one resigned or "
                              "forfeited), before the move at ply %(ply)s.") % {"ply": ply},
                            ply, None)
        if engine.is_over(state):
            return _verdict(False, ply, "game_over",
                            _("The game was over before the move at ply %(ply)s.")
                            % {"ply": ply}, ply, None)
        if seat not in engine.to_act(state):
            return _verdict(False, ply, "not_your_turn",
                            _("Seat %(seat)s did not owe a decision at ply %(ply)s.")
                            % {"seat": seat, "ply": ply}, ply, None)
        try:
            state, _events = engine.apply(state, seat, move)
        except IllegalMove as exc:
            return _verdict(False, ply, "illegal_move",
                            _("The move at ply %(ply)s is refused: %(reason)s")
                            % {"ply": ply, "reason": message_of(exc)}, ply, None)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            # the engine contract says IllegalMove; a missed case is still a refusal here
            logger.warning("%s engine crashed verifying a record at ply %s", engine.name, ply)
            return _verdict(False, ply, "illegal_move",
                            _("The move at ply %(ply)s cannot be read by the rules.")
                            % {"ply": ply}, ply, None)
        if expected is not None and state_digest(engine.to_json(state)) != expected:
            return _verdict(False, ply, "state_mismatch",
                            _("The move at ply %(ply)s leads to another state than recorded.")
                            % {"ply": ply},
                            ply, None)
    end = len(parsed["moves"])
    if (impossible := incidents.happen(end, state)) is not None:
        return _verdict(False, end, "impossible_incident", impossible, end, None)
    # The engine's result with resignations and forfeits on top, exactly as scoring does.
    result = final_result(engine, state, parsed["players"], parsed["incidents"])
    if result is None:
        return _verdict(False, end, "game_not_over",
                        _("The moves end before the game does."), end, None)
    computed = normalized_json({
        "scores": result["scores"], "ranks": result["ranks"], "winners": result["winners"],
        "breakdown": result.get("breakdown", []), "forfeits": incidents.forfeited,
        "timeouts": incidents.timeouts(),
    })
    stated = normalized_json(parsed["result"])
    differing = sorted(key for key, value in stated.items() if computed.get(key) != value)
    if differing:
        return _verdict(False, end, "result_mismatch",
                        _("The stated %(parts)s do not follow from the moves.")
                        % {"parts": ", ".join(differing)},
                        end, computed)
    return _verdict(True, None, None, _("The stated result follows from the seed and moves."),
                    end, computed)
