"""A catalogue entry (games/catalogue.py) in the active language.

Translated in place: the title, every ``description`` (options, moves, bot levels,
drawing notes) and the names of Han's maps and provinces, which are display text only
(maps and provinces have their own ``id``). A Hansa city's ``name`` is also its key (in
the view, in each card's ``city``), so it stays, and each city and card gains a
``label`` in the active language. Ids, enum values, codes and JSON Schema ``title``s
(client generators name classes after them) never change.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import orjson
from django.utils.translation import get_language, gettext, override, pgettext


def each_description(value) -> Iterator[dict]:
    """Every object below ``value`` (JSON-like) with a ``description`` string: option and
    move schemas, bot levels, drawing notes."""
    if isinstance(value, dict):
        if isinstance(value.get("description"), str):
            yield value
        for key, item in value.items():
            if key != "description":
                yield from each_description(item)
    elif isinstance(value, list):
        for item in value:
            yield from each_description(item)


def card_label(card: dict) -> str:
    """``Bruges, ship, trade power 1``, ``London, person C, trade power 2, luxury``, in
    the active language."""
    return _card_label(get_language(), card["city"], card["kind"], card.get("person"),
                       card["trade_power"], bool(card.get("luxury")))


@lru_cache(maxsize=1024)  # 60 cards a language: the catalogue asks for all of them
def _card_label(language: str | None, city: str, kind: str, person: str | None,
                power: int, luxury: bool) -> str:
    with override(language):
        return _card_label_now({"city": city, "kind": kind, "person": person,
                                "trade_power": power, "luxury": luxury})


def _card_label_now(card: dict) -> str:
    kind = gettext(card["kind"])
    if card.get("person"):
        kind = f"{kind} {card['person']}"
    label = pgettext("a Hansa card: city, kind, trade power",
                     "%(city)s, %(kind)s, trade power %(power)s") % {
        "city": gettext(card["city"]), "kind": kind, "power": card["trade_power"]}
    if card.get("luxury"):
        label += gettext(", luxury")
    return label


def localized_entry(entry: dict) -> dict:
    """A copy of ``entry`` with its texts for people in the active language."""
    entry = orjson.loads(orjson.dumps(entry))  # a copy: the rules cache parts of it
    entry["title"] = gettext(entry["title"])
    for described in each_description(entry):
        described["description"] = gettext(described["description"])
    for described in entry.get("maps", {}).values():
        described["name"] = gettext(described["name"])
        board = described.get("board", {})
        board["name"] = gettext(board.get("name", ""))
        for province in board.get("provinces", []):
            province["name"] = gettext(province["name"])
    drawing = entry.get("drawing", {})
    for city in drawing.get("cities", []):
        city["label"] = gettext(city["name"])
    for card in drawing.get("cards", []):
        card["label"] = card_label(card)
    return entry
