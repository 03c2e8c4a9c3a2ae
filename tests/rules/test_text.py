"""rules/text.py: the rules' texts stay plain English strings for every caller, and carry
their template and values so the service can translate them (games/i18n)."""

from __future__ import annotations

import pytest

from rules import IllegalMove, get_engine
from rules.text import Text, in_drawing_language, tr, translated, translating

GERMAN = {"you hold no {card} card": "Sie haben keine Karte der Farbe {card}",
          "Spectator view": "Zuschaueransicht", "Bruges": "Brügge",
          "seat {seat}": "Platz {oops}"}


def test_a_text_is_its_english_string_and_keeps_template_and_values():
    text = tr("you hold no {card} card", card="red")
    assert text == "you hold no red card" and isinstance(text, str)
    assert (text.template, text.values) == ("you hold no {card} card", {"card": "red"})
    assert text.translated(GERMAN.get) == "Sie haben keine Karte der Farbe red"
    assert tr("a pass move is {'type': 'pass'}") == "a pass move is {'type': 'pass'}"


def test_translated_takes_texts_by_template_names_as_they_are_and_keeps_english_on_a_bad_one():
    translate = lambda text: GERMAN.get(text, text)  # noqa: E731 - a lookup, as gettext
    assert translated(tr("Spectator view"), translate) == "Zuschaueransicht"
    assert translated("Bruges", translate) == "Brügge"  # a name from the data files
    assert translated(tr("you hold no {card} card", card="red"), None) == "you hold no red card"
    # a translation naming a field the template has not: the English, never a crash
    assert translated(tr("seat {seat}", seat=2), translate) == "seat 2"


def test_an_illegal_move_keeps_its_text_whole_while_its_message_is_cut():
    long = "x" * 400
    with pytest.raises(IllegalMove) as refused:
        get_engine("han").apply(get_engine("han").setup(3, {}, "s"), 0,
                                {"type": "place", "cards": [long], "pieces": [{}]})
    assert len(refused.value.message) == IllegalMove.MAX_MESSAGE_LENGTH
    assert isinstance(refused.value.text, Text)
    assert refused.value.text.values == {"card": long}


def test_the_drawings_translate_inside_translating_only():
    engine = get_engine("hansa")
    view = engine.view(engine.setup(2, {}, "s"), None)
    english = engine.render_svg(view)
    german = engine.render_svg(view, lambda text: GERMAN.get(text, text))
    assert "Bruges" in english
    assert "Brügge" in german and "Brügge" not in english
    assert engine.render_svg(view) == english  # nothing left switched on
    with translating(GERMAN.get):
        assert in_drawing_language(tr("Spectator view")) == "Zuschaueransicht"
    assert in_drawing_language(tr("Spectator view")) == "Spectator view"
