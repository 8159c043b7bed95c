"""bot/web/auth.py: Telegram's initData check as Telegram specifies it, and the signed seat links."""

from __future__ import annotations

import hashlib
import hmac
from urllib.parse import parse_qsl

import pytest

from bot.web.auth import AuthError, SeatLinks, validate_init_data
from tests.web.tables import ALICE, BOT_TOKEN, init_data

NOW = 1_800_000_000.0


def test_init_data_hash_follows_telegrams_recipe_independently_computed() -> None:
    raw = init_data(ALICE, NOW)
    fields = dict(parse_qsl(raw))
    check = "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash")
    secret = hmac.new(b"WebAppData", BOT_TOKEN.encode(), hashlib.sha256).digest()
    assert fields["hash"] == hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    user = validate_init_data(raw, BOT_TOKEN, 3600, NOW + 10)
    assert (user.id, user.name, user.lang) == (101, "Alice", "ru")


@pytest.mark.parametrize("case", ["other_token", "tampered", "expired", "no_hash", "future"])
def test_bad_init_data_is_refused(case: str) -> None:
    raw = {
        "other_token": init_data(ALICE, NOW, token="999:OTHER"),
        "tampered": init_data(ALICE, NOW).replace("Alice", "Mallory"),
        "expired": init_data(ALICE, NOW - 3601),
        "no_hash": "&".join(p for p in init_data(ALICE, NOW).split("&") if not p.startswith("hash=")),
        "future": init_data(ALICE, NOW + 3600),
    }[case]
    with pytest.raises(AuthError):
        validate_init_data(raw, BOT_TOKEN, 3600, NOW)


def test_seat_links_round_trip_and_refuse_forgery_expiry_and_other_secrets() -> None:
    links = SeatLinks(b"s1")
    token = links.token("t1", 2, NOW + 60)
    granted = links.verify(token, NOW)
    assert (granted.table_id, granted.seat) == ("t1", 2)
    assert links.verify(links.token("t1", None, NOW + 60), NOW).seat is None
    with pytest.raises(AuthError):
        links.verify(token, NOW + 61)
    with pytest.raises(AuthError):
        SeatLinks(b"s2").verify(token, NOW)
    table, seat, exp, mac = token.split(".")
    for forged in (f"{table}.1.{exp}.{mac}", f"{table}.{seat}.{int(exp) + 999}.{mac}", f"t2.{seat}.{exp}.{mac}",
                   f"{table}.-.{exp}.{mac}", "garbage", f"{table}.{seat}.{exp}"):
        with pytest.raises(AuthError):
            links.verify(forged, NOW)
