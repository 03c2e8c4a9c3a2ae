"""The time controls a match may be created with, and their validation.

A time control is chosen at creation as a preset name (``"realtime-10+30"``), or an object
``{"preset": name, "timeout_policy"?, "takeover_bot"?}``, or a custom one
``{"kind": "realtime", "initial_seconds", "increment_seconds"}`` /
``{"kind": "turn_based", "days_per_move"}`` (same optional policy keys). ``normalize``
turns any of them into the one stored shape (``Match.time_control``), or raises.

Realtime: each seat has a bank of ``initial_seconds``; each finished turn adds
``increment_seconds``, never above the initial time (Board Game Arena's profile).
Turn-based: each turn gets ``days_per_move`` days afresh (lichess correspondence).
``none``: no clock. It is meant for unrated or private play; until ratings and private
matches exist it is allowed everywhere (and it is the default).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.matches.errors import InvalidTimeControl, UnknownPreset
from rules.bots import BOT_KINDS

NONE, REALTIME, TURN_BASED = "none", "realtime", "turn_based"
TAKEOVER, FORFEIT = "takeover", "forfeit"
TIMEOUT_POLICIES = (TAKEOVER, FORFEIT)
#: the bot that takes a seat over unless the match names another
DEFAULT_TAKEOVER_BOT = "greedy"

DAY = 86_400

PRESETS: dict[str, dict] = {
    "none": {"kind": NONE},
    "realtime-3+10": {"kind": REALTIME, "initial_seconds": 180, "increment_seconds": 10},
    "realtime-10+30": {"kind": REALTIME, "initial_seconds": 600, "increment_seconds": 30},
    "realtime-20+60": {"kind": REALTIME, "initial_seconds": 1200, "increment_seconds": 60},
    "turn-based-1d": {"kind": TURN_BASED, "days_per_move": 1},
    "turn-based-3d": {"kind": TURN_BASED, "days_per_move": 3},
    "turn-based-7d": {"kind": TURN_BASED, "days_per_move": 7},
}

#: bounds of custom time controls (seconds, days)
LIMITS = {
    "initial_seconds": (1, DAY),
    "increment_seconds": (0, 3600),
    "days_per_move": (1, 30),
}

_POLICY_KEYS = {"timeout_policy", "takeover_bot"}
_CUSTOM_KEYS = {REALTIME: {"initial_seconds", "increment_seconds"},
                TURN_BASED: {"days_per_move"}}


def catalogue() -> list[dict]:
    """The presets as the game catalogue lists them."""
    return [{"preset": name, **values} for name, values in PRESETS.items()]


def _fail(message: str, reason: str, **details: Any) -> InvalidTimeControl:
    return InvalidTimeControl(message, details={"reason": reason, **details})


def _number(data: dict, key: str) -> int:
    raw = data.get(key)
    number = raw if isinstance(raw, int) and not isinstance(raw, bool) else None  # JSON ints
    if number is not None and number < 0:
        raise _fail(_("%(key)s may not be negative.") % {"key": key}, "negative_time", field=key)
    low, high = LIMITS[key]
    if number is None or not low <= number <= high:
        raise _fail(_("%(key)s must be a whole number from %(low)s to %(high)s.")
                    % {"key": key, "low": low, "high": high}, "out_of_range",
                    field=key, min=low, max=high)
    return number


def _policy(data: dict) -> dict:
    policy = data.get("timeout_policy", TAKEOVER)
    if policy not in TIMEOUT_POLICIES:
        raise _fail(_("timeout_policy must be one of %(values)s.")
                    % {"values": ", ".join(TIMEOUT_POLICIES)},
                    "unknown_timeout_policy", timeout_policies=list(TIMEOUT_POLICIES))
    bot = data.get("takeover_bot", DEFAULT_TAKEOVER_BOT)
    if bot not in BOT_KINDS:
        raise _fail(_("takeover_bot must be one of %(values)s.") % {"values": ", ".join(BOT_KINDS)},
                    "unknown_bot", bot_kinds=list(BOT_KINDS))
    return {"timeout_policy": policy, "takeover_bot": bot}


def normalize(value: Any) -> dict:
    """The stored form of a requested time control (None: no clock). Raises UnknownPreset
    or InvalidTimeControl (400); pure, so a refused request has written nothing."""
    if value is None:
        return {"preset": "none", "kind": NONE}
    if isinstance(value, str):
        value = {"preset": value}
    if not isinstance(value, dict):
        raise _fail(_("time_control must be a preset name or an object."), "not_an_object")
    if "preset" in value:
        name = value["preset"]
        if not isinstance(name, str) or name not in PRESETS:
            raise UnknownPreset(
                _("No time-control preset %(name)r; choose one of %(presets)s.")
                % {"name": str(name)[:40], "presets": ", ".join(PRESETS)},
                details={"reason": "unknown_preset",
                                                   "presets": list(PRESETS)})
        unknown = set(value) - {"preset"} - _POLICY_KEYS
        base = dict(PRESETS[name])
        normalized = {"preset": name, **base}
    else:
        kind = value.get("kind")
        if kind not in _CUSTOM_KEYS:
            raise _fail(_('A custom time control needs "kind": "realtime" or "turn_based" '
                          '(or name a "preset").'), "unknown_kind",
                        kinds=[REALTIME, TURN_BASED])
        unknown = set(value) - {"kind"} - _CUSTOM_KEYS[kind] - _POLICY_KEYS
        normalized = {"preset": "custom", "kind": kind}
        for key in sorted(_CUSTOM_KEYS[kind]):
            normalized[key] = _number(value, key)
    if unknown:
        raise _fail(_("Unknown time_control keys."), "unknown_field",
                    fields=sorted(str(key)[:40] for key in unknown)[:10])
    if normalized["kind"] != NONE:
        normalized.update(_policy(value))
    return normalized


def kind_of(time_control: dict | None) -> str:
    """``none``, ``realtime`` or ``turn_based``; matches from before clocks are ``none``."""
    return (time_control or {}).get("kind", NONE)
