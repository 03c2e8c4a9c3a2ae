"""The ``ref`` read from a frame over the message rate (games.play.protocol.ref_of): the
same rule as a parsed frame's ref, and its size limit counted in bytes, as play.md says
(8 KB), not in characters."""

from __future__ import annotations

import json

import pytest

from games.play.protocol import REF_READ_MAX_BYTES, ProtocolError, read_frame, ref_of


def _frame(ref, padding: str = "") -> str:
    return json.dumps({"op": "ping", "ref": ref, "pad": padding}, ensure_ascii=False)


def test_a_small_frame_gives_its_ref():
    assert ref_of(_frame("m-1")) == "m-1"
    assert ref_of(_frame(7)) == 7


def test_a_frame_over_the_limit_in_bytes_but_not_in_characters_is_not_read():
    # 3,000 euro signs: 3,000 characters, 9,000 bytes of UTF-8
    text = _frame("m-2", "\u20ac" * 3000)
    assert len(text) < REF_READ_MAX_BYTES < len(text.encode())
    assert ref_of(text) is None
    assert ref_of(text.encode()) is None
    # just under the limit in bytes, it is read
    assert ref_of(_frame("m-3", "\u20ac" * 2000)) == "m-3"


@pytest.mark.parametrize("ref", ["bad\x00ref", "x" * 200, True, 2**60, 1.5, {"a": 1}])
def test_a_ref_read_frame_refuses_is_not_echoed_either(ref):
    text = _frame(ref)
    with pytest.raises(ProtocolError) as refused:
        read_frame(text, max_bytes=65536)
    assert refused.value.code == "malformed_message"
    assert ref_of(text) is None


def test_no_json_object_no_ref():
    assert ref_of("not json") is None
    assert ref_of("[1, 2]") is None
    assert ref_of(None) is None
