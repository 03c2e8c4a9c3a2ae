"""The one reader of every number a request carries (infra/numbers.py, issue 39): ASCII
digits only, at most MAX_DIGITS of them counted before ``int()`` runs, in the field's
range; a refusal raises the field's own error naming the field, never ValueError."""

from __future__ import annotations

import time

import pytest

from infra.numbers import (
    BIGINT_MAX,
    MAX_DIGITS,
    InvalidNumber,
    parse_whole_number,
    whole_number,
)


@pytest.mark.parametrize("value, expected", [
    ("0", 0), ("42", 42), (" 7 ", 7), ("007", 7), ("9" * MAX_DIGITS, int("9" * MAX_DIGITS)),
    (5, 5), (-3, -3), (2**80, 2**80),
])
def test_digits_and_ints_are_read(value, expected):
    assert whole_number(value) == expected


@pytest.mark.parametrize("value", [
    "", " ", "1" * (MAX_DIGITS + 1), "0" * 30 + "1", "1" * 5000, "1" * 100_000, "-1", "+1",
    "1.5", "1e3", "1_000", "٣", "３", "0x10", None, True, False, 1.0, [1], {"a": 1},
])
def test_anything_else_is_none_without_calling_int_on_a_long_string(value):
    assert whole_number(value) is None


def test_json_numbers_only_when_text_is_off():
    assert whole_number("12", text=False) is None
    assert whole_number(12, text=False) == 12


def test_a_million_digits_are_refused_at_once():
    started = time.perf_counter()
    assert whole_number("7" * 1_000_000) is None
    assert time.perf_counter() - started < 0.05


def test_parse_reads_in_range_and_defaults_when_absent():
    assert parse_whole_number("5", "limit", low=1, high=10) == 5
    assert parse_whole_number(None, "limit", low=1, high=10, default=3) == 3
    assert parse_whole_number("", "limit", low=1, high=10, default=3) == 3
    assert parse_whole_number(str(BIGINT_MAX), "id") == BIGINT_MAX


@pytest.mark.parametrize("value", ["1" * 5000, "11", "0", "x", None, str(BIGINT_MAX + 1)])
def test_parse_refuses_with_invalid_input_naming_the_field(value):
    with pytest.raises(InvalidNumber) as caught:
        parse_whole_number(value, "limit", low=1, high=10)
    error = caught.value
    assert error.status_code == 400 and error.code == "invalid_input"
    assert set(error.details) == {"limit", "min", "max"}
    assert len(str(error.details["limit"])) <= 20
    assert "limit" in error.message


def test_parse_raises_the_fields_own_error():
    class Mine(Exception):
        def __init__(self, message, details):
            super().__init__(message)
            self.details = details

    with pytest.raises(Mine) as caught:
        parse_whole_number("9" * 30, "ply", high=4, error=Mine)
    assert caught.value.details == {"ply": "9" * 20, "min": 0, "max": 4}
