"""Rendering shared by every game: errors, lobby, seat names, tile lists."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.core.i18n import has, t
from bot.core.text import display_name, excerpt
from storage import TableRecord

# How much of a parameter an error quotes. `token`, `game` and `command` hold the player's own text
# (the unparsed rest, an unknown game); `detail` is a sentence (an option error) that may hold the
# player's option names; any other string or list is built by an engine, but from what the player
# named (tiles, melds), so it is bounded too. Every one is cleaned of control characters.
# Lists the bot itself builds (a game's options, the allowed values, the known games) are longer
# than anything a player types, but bounded too.
_PARAM_MAX = {"token": 40, "game": 40, "command": 40, "detail": 200, "options": 600, "allowed": 300, "known": 300}
_OTHER_MAX = 120


def names(rec: TableRecord, viewer: int | None = None, lang: str = "en") -> list[str]:
    """Seat names as shown to `viewer`: their own seat reads "You" ("Вы"), not the stored name."""
    shown = [display_name(s.name) for s in rec.seats]
    if viewer is not None and 0 <= viewer < len(shown):
        shown[viewer] = t("name.you", lang)
    return shown


def said(key: str, lang: str, seat: int | None, viewer: int | None, **params: Any) -> str:
    """A sentence about `seat`, in the second person when the viewer is the one it is about.

    `<key>.you` is the viewer's own wording ("You start.", "Вы взяли фишку."): a name cannot take
    the place of "you" in either language (verb endings, gender in Russian)."""
    if seat is not None and seat == viewer and has(f"{key}.you", lang):
        key = f"{key}.you"
    return t(key, lang, **params)


def join_items(items: Iterable[str]) -> str:
    return " ".join(items)


def _param_text(key: str, value: Any, lang: str) -> Any:
    if key == "reason" and isinstance(value, str):
        return t(f"meld_reason.{value}", lang)
    if isinstance(value, list | tuple):
        value = join_items(str(v) for v in value)
    if isinstance(value, str):
        return excerpt(value, _PARAM_MAX.get(key, _OTHER_MAX))
    return value


def render_error(err: Exception, lang: str = "en", game: str | None = None) -> str:
    """A sentence for an `IllegalAction` or `ServiceError`, with the offending items filled in.

    A game may word a shared code its own way: `<game>.error.<CODE>` wins over `error.<CODE>`, and a
    `why` param picks a variant sentence (`error.<CODE>.<why>`) where one exists."""
    code = getattr(err, "code", None)
    params: dict[str, Any] = dict(getattr(err, "params", {}) or {})
    if code is None:
        return excerpt(str(err), _PARAM_MAX["detail"])
    text_params = {k: _param_text(k, v, lang) for k, v in params.items()}
    if code == "E_PARSE":
        if params.get("token") or params.get("expected"):
            problem = t("parse.expected", lang, expected=text_params.get("expected", "?"),
                        token=text_params.get("token", ""))
        else:
            problem = t("parse.empty", lang)
        text_params["problem"] = problem
    if code == "E_BAD_REF":
        text_params["ref"] = excerpt(", ".join(f"{k} {v}" for k, v in params.items()), _OTHER_MAX)
    # A `why` param names a variant of the code with its own sentence (E_PHASE.not_your_turn).
    bases = ([f"{game}.error.{code}"] if game else []) + [f"error.{code}"]
    why = params.get("why")
    keys = ([f"{b}.{why}" for b in bases] if isinstance(why, str) else []) + bases
    for key in keys:
        if has(key, lang):
            return t(key, lang, **text_params)
    return t("error.unknown", lang, code=code)


def render_lobby(rec: TableRecord, lang: str = "en", max_seats: int | None = None) -> str:
    host = next(
        (s.name for s in rec.seats if s.platform == rec.host_platform and s.user_id == rec.host_user_id), "?"
    )
    lines = [t("lobby.title", lang, game=t(f"game.{rec.game}", lang), host=display_name(host))]
    lines.append(t("lobby.seats", lang, count=len(rec.seats), max=max_seats or "?"))
    lines += [t("lobby.seat_line", lang, seat=i + 1, name=display_name(s.name)) for i, s in enumerate(rec.seats)]
    lines.append(t("lobby.options", lang, options=", ".join(f"{k}={v}" for k, v in rec.options.items())))
    return "\n".join(lines)
