"""Who is asking: a Telegram Mini App's `initData`, or a signed link for one seat (or a spectator).

Telegram signs `initData` with a key derived from the bot token (core.telegram.org/bots/webapps,
"Validating data received via the Mini App"): secret = HMAC-SHA-256(key="WebAppData", msg=token);
the hash is the hex HMAC-SHA-256 of the data-check-string — every received field but `hash`,
`key=value`, sorted by key, joined with "\\n" — under that secret. `auth_date` older than the
configured age is refused, so a leaked initData stops working.

A seat link carries `<table>.<seat>.<expiry>.<signature>` where the signature is HMAC-SHA-256 over
table, seat and expiry with the web secret (spectators have seat `-`). Any check failing is one
`AuthError`: the server answers 401 and says nothing about which part failed.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

SPECTATOR = "-"


class AuthError(Exception):
    """Forged, expired or foreign credentials (the reason is for logs and tests, never the client)."""


@dataclass(frozen=True)
class TelegramUser:
    id: int
    name: str
    lang: str | None
    start_param: str | None  # `startapp=<table>` of the direct link, when opened through one
    auth_date: int = 0  # when Telegram signed it: a stream opened with it ends at auth_date + the max age


def telegram_secret(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def data_check_string(fields: dict[str, str]) -> str:
    return "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")


def sign_init_data(fields: dict[str, str], bot_token: str) -> str:
    """The hash Telegram would put on these fields (tests and local tools build initData with it)."""
    return hmac.new(telegram_secret(bot_token), data_check_string(fields).encode(), hashlib.sha256).hexdigest()


def validate_init_data(init_data: str, bot_token: str, max_age_s: float, now: float) -> TelegramUser:
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError as err:
        raise AuthError("malformed initData") from err
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise AuthError("repeated field")
    given = fields.get("hash", "")
    if not hmac.compare_digest(sign_init_data(fields, bot_token), given):
        raise AuthError("bad hash")
    try:
        auth_date = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError) as err:
        raise AuthError("no user") from err
    if not now - max_age_s <= auth_date <= now + 60:  # a minute of clock skew the other way
        raise AuthError("expired")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip() or str(user_id)
    lang = user.get("language_code") if isinstance(user.get("language_code"), str) else None
    return TelegramUser(user_id, name, lang, fields.get("start_param"), auth_date)


@dataclass(frozen=True)
class Pass:
    """What a valid link lets in: one table, as one seat or (seat None) as a spectator."""

    table_id: str
    seat: int | None
    expires: float = field(default=float("inf"), compare=False)  # an open stream ends then


@dataclass(frozen=True)
class SeatLinks:
    secret: bytes

    def _mac(self, table_id: str, seat: str, expires: int) -> str:
        return hmac.new(self.secret, f"{table_id}\n{seat}\n{expires}".encode(), hashlib.sha256).hexdigest()[:32]

    def token(self, table_id: str, seat: int | None, expires: float) -> str:
        who = SPECTATOR if seat is None else str(seat)
        exp = int(expires)
        return f"{table_id}.{who}.{exp}.{self._mac(table_id, who, exp)}"

    def verify(self, token: str, now: float) -> Pass:
        parts = token.split(".")
        if len(parts) != 4:
            raise AuthError("malformed link")
        table_id, who, exp, mac = parts
        if not exp.isdigit() or not (who == SPECTATOR or who.isdigit()):
            raise AuthError("malformed link")
        if not hmac.compare_digest(self._mac(table_id, who, int(exp)), mac):
            raise AuthError("bad signature")
        if int(exp) < now:
            raise AuthError("expired")
        return Pass(table_id, None if who == SPECTATOR else int(who), int(exp))
