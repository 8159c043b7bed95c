"""The shared button codec: round trips, size limits, and refusal of anything malformed."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.codec import (
    DISCORD_MAX_CHARS,
    TELEGRAM_MAX_BYTES,
    ButtonData,
    CodecError,
    decode,
    encode,
    indices_of,
    mask_of,
)


def test_adapter_verbs_are_compact_and_round_trip() -> None:
    data = encode("0123456789ab", 17, "join")
    assert data == "v1:0123456789ab:17:J"
    assert decode(data) == ButtonData("0123456789ab", 17, "join")
    data = encode("0123456789ab", 3, "cmd", 2, "3fff", 12)
    assert decode(data) == ButtonData("0123456789ab", 3, "cmd", ("2", "3fff", "12"))
    assert decode(data).action == "cmd 2 3fff 12"


def test_game_verbs_travel_as_text() -> None:
    data = encode("t1", 0, "draw")
    assert decode(data) == ButtonData("t1", 0, "draw")
    assert decode(encode("t1", 9, "discard", "10H")).args == ("10H",)


def test_telegram_limit_is_enforced_on_encode() -> None:
    with pytest.raises(ValueError):
        encode("0123456789ab", 1, "play", *(["r10"] * 15))
    longest = encode("0123456789ab", 999_999_999, "cmd", 99, "f" * 27, 99)
    assert len(longest.encode()) <= TELEGRAM_MAX_BYTES


@pytest.mark.parametrize("data", [
    None, "", "vote:yes", "v2:t1:1:J", "v1:t1:1", "v1:t1:-1:J", "v1:t1:01:J", "v1:t 1:1:J", "v1:t1:1:Q",
    "v1:t1:1: J", "v1:t1:1:J  x", "v1:t1:1:é", "v1:" + "a" * 40 + ":1:J", "v1:t1:1:" + "x" * 200,
])
def test_malformed_data_is_refused(data: str | None) -> None:
    with pytest.raises(CodecError):
        decode(data)


def test_bad_encode_arguments() -> None:
    for args in [("bad id", 1, "join"), ("t1", -1, "join"), ("t1", 1, "has space"), ("t1", 1, "Draw")]:
        with pytest.raises(ValueError):
            encode(*args)  # type: ignore[arg-type]


def test_masks() -> None:
    assert mask_of([]) == "0" and indices_of("0", 5) == []
    assert indices_of(mask_of({0, 3, 13}), 14) == [0, 3, 13]
    for bad in ["", "xyz", "F", "1" * 41]:
        with pytest.raises(CodecError):
            indices_of(bad, 14)
    with pytest.raises(CodecError):
        indices_of(mask_of([14]), 14)


@given(st.text(alphabet="0123456789abcdefABCDEF_-", min_size=1, max_size=12),
       st.integers(0, 10**9 - 1),
       st.lists(st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7e), min_size=1, max_size=5),
                max_size=4))
def test_round_trip_property(table_id: str, version: int, args: list[str]) -> None:
    try:
        data = encode(table_id, version, "cmd", *args, max_bytes=DISCORD_MAX_CHARS)
    except ValueError:
        return
    assert decode(data) == ButtonData(table_id, version, "cmd", tuple(args))


@given(st.text(max_size=120))
def test_decode_never_crashes(data: str) -> None:
    with contextlib.suppress(CodecError):
        decode(data)
