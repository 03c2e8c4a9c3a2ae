"""The one rule for the characters no text a client sends may hold (infra/text_inputs.py,
issues 21 and 39): C0 controls U+0000-U+001F, DEL and the C1 controls U+007F-U+009F, the
bidirectional controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C),
surrogates and non-characters are refused in every string and every object key, at any
depth, with ``invalid_input`` naming where; a field of free text over several lines may
hold TAB, LF and CR, never the others. The error never repeats the text it refuses.

Issue 39 widened the rule: U+0080 was listed below as text that passes (C1 controls were
accepted and an abort reason stored U+0085); it is now refused."""

from __future__ import annotations

import pytest

from infra.text_inputs import (
    CONTROL_CHARACTERS,
    ControlCharacters,
    find_control_characters,
    refuse_control_characters,
)

EVERY_CONTROL = [chr(code) for code in (*range(0x20), *range(0x7F, 0xA0))]
BIDI_CONTROLS = [chr(code) for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A),
                                        0x200E, 0x200F, 0x061C)]
NON_CHARACTERS = [chr(code) for code in range(0xFDD0, 0xFDF0)] + [
    chr(plane * 0x10000 + last) for plane in range(17) for last in (0xFFFE, 0xFFFF)]
SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"]
EVERY_REFUSED = EVERY_CONTROL + BIDI_CONTROLS + NON_CHARACTERS + SURROGATES


@pytest.mark.parametrize("character", EVERY_CONTROL, ids=lambda c: f"U+{ord(c):04X}")
def test_every_control_character_is_found(character):
    assert find_control_characters(f"ab{character}c", "name") == "name"


@pytest.mark.parametrize("character", BIDI_CONTROLS + NON_CHARACTERS + SURROGATES,
                         ids=lambda c: f"U+{ord(c):04X}")
def test_every_bidi_control_non_character_and_surrogate_is_found(character):
    assert find_control_characters(f"ab{character}c", "name") == "name"
    assert find_control_characters({"reason": f"ab{character}"}, "",
                                   multiline={"reason"}) == "reason"
    assert find_control_characters({f"k{character}": 1}, "") is not None


@pytest.mark.parametrize("text", ["alice", "", "ａｄｍｉｎ", "é ü ß", "a b", "\u00a0\u2028\u2029",
                                  "🙂", "x" * 5000, "שלום", "مرحبا", "\u200b\u200d\ufeff",
                                  "\ufdcf\ufdf0\ufffd\U0001f600\U0010fffd"])
def test_printable_text_and_other_unicode_pass(text):
    assert find_control_characters(text, "name") is None
    assert find_control_characters({"name": text, "list": [text, 1, None, True]}, "") is None


def test_the_path_names_the_first_offending_place_at_any_depth():
    body = {"game": "han", "options": {"map": "ways", "x": [1, "ok", {"deep": "a\x00b"}]}}
    assert find_control_characters(body, "") == "options.x.2.deep"
    assert find_control_characters(["ok", "a\x1fb"], "usernames") == "usernames.1"
    assert find_control_characters({"a": 1}, "body") is None


def test_a_key_with_a_control_character_is_found_and_shown_escaped():
    path = find_control_characters({"move": {"ty\x00pe": "place"}}, "")
    assert path == "move.ty\\x00pe"
    assert "\x00" not in path


@pytest.mark.parametrize("allowed", ["\t", "\n", "\r", "line one\r\nline two\n\tindented"])
def test_free_text_fields_may_hold_tab_and_line_breaks(allowed):
    assert find_control_characters({"reason": allowed}, "", multiline={"reason"}) is None
    assert find_control_characters({"other": allowed}, "", multiline={"reason"}) == "other"


@pytest.mark.parametrize("character", sorted(set(EVERY_CONTROL) - {"\t", "\n", "\r"}),
                         ids=lambda c: f"U+{ord(c):04X}")
def test_free_text_fields_still_refuse_every_other_control(character):
    assert find_control_characters({"reason": f"rain{character}"}, "",
                                   multiline={"reason"}) == "reason"


def test_the_refusal_is_invalid_input_with_a_field_code_and_without_the_text():
    secret_looking = "hunter2\x00"
    with pytest.raises(ControlCharacters) as caught:
        refuse_control_characters({"password": secret_looking}, "")
    error = caught.value
    assert error.status_code == 400
    assert error.code == "invalid_input"
    assert list(error.details) == ["password"]
    assert error.details["password"][0]["code"] == "control_characters"
    assert "hunter2" not in error.message and "hunter2" not in str(error.details)
    assert error.message.startswith("Invalid input: password: ")


def test_clean_input_passes_through():
    refuse_control_characters({"username": "alice", "options": {}}, "")
    refuse_control_characters("a-code", "invite_code")


def test_the_pattern_is_the_documented_range():
    assert {chr(code) for code in range(0x110000) if CONTROL_CHARACTERS.search(chr(code))} \
        == set(EVERY_REFUSED) | {chr(code) for code in range(0xD800, 0xE000)}
