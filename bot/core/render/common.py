"""Rendering shared by every game: errors, lobby, seat names, tile lists."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from babel import Locale, UnknownLocaleError

from bot.core.ai_seats import seat_name
from bot.core.i18n import has, t
from bot.core.options_ui import option_line
from bot.core.text import display_name, excerpt
from rules import get_engine
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
    shown = [seat_name(s, lang) for s in rec.seats]
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


def _phase_word(phase: str, lang: str, game: str | None) -> str:
    """A part of the turn in words (`<game>.phase.<phase>`, then `phase.<phase>`), else as the engine names it."""
    for key in ([f"{game}.phase.{phase}"] if game else []) + [f"phase.{phase}"]:
        if has(key, lang):
            return t(key, lang)
    return phase


def _param_text(key: str, value: Any, lang: str, game: str | None = None) -> Any:
    if key == "reason" and isinstance(value, str):
        return t(f"meld_reason.{value}", lang)
    if key == "phase" and isinstance(value, str):
        return _phase_word(value, lang, game)
    if isinstance(value, list | tuple):
        value = join_items(str(v) for v in value)
    if isinstance(value, str):
        return excerpt(value, _PARAM_MAX.get(key, _OTHER_MAX))
    return value


def ordinal(n: int, lang: str) -> str:
    """`1st`, `2nd`, `3rd` / `1-я`: CLDR's ordinal plural category (Babel) picks the catalog's form."""
    try:
        form = Locale.parse(lang).ordinal_form(n)
    except (ValueError, UnknownLocaleError):
        form = "other"
    key = f"ordinal.{form}"
    return t(key if has(key, lang) else "ordinal.other", lang, n=n)


def _variants(code: str, params: dict[str, Any]) -> list[str]:
    """Sentence variants of a code, most specific first: the engine's `why`, then for E_PHASE the
    command in this part of the turn (`take.bank`) and the part of the turn alone (`bank`), so each
    game can say what is possible now instead."""
    out = [params["why"]] if isinstance(params.get("why"), str) else []
    action, phase = params.get("action"), params.get("phase")
    if code == "E_PHASE" and isinstance(phase, str):
        if isinstance(action, str):
            out.append(f"{action}.{phase}")
        out.append(phase)
    return out


def _commands(game: str | None) -> str:
    """The game's command words, in its help order (the way forward for an unknown command)."""
    if game is None:
        return ""
    verbs: list[str] = []
    for example, _ in get_engine(game).help_text():
        verb = example.split()[0]
        if verb not in verbs:
            verbs.append(verb)
    return ", ".join(verbs)


def _parse_words(params: dict[str, Any], shown: dict[str, Any], lang: str, game: str | None) -> dict[str, str]:
    """E_PARSE in plain words: what could not be read (`parse.expected.<what>`), and the way forward:
    the forms of the command that was typed (`<game>.parse.forms.<verb>`) or the game's commands.
    The player's own text is quoted as `shown` has it (cut short and cleaned by `_param_text`)."""
    expected, token = params.get("expected"), str(shown.get("token", ""))
    verb = params.get("verb")
    fields = {"token": token, "verb": str(shown.get("verb", "")), "expected": str(shown.get("expected", "?"))}
    if not token and expected in (None, "command"):
        problem = t("parse.empty", lang)
    elif isinstance(expected, str) and has(f"parse.expected.{expected}", lang):
        problem = t(f"parse.expected.{expected}", lang, **fields)
    else:
        problem = t("parse.expected", lang, **fields)
    forms_key = f"{game}.parse.forms.{verb.split()[0] if isinstance(verb, str) and verb else verb}"
    if game and isinstance(verb, str) and has(forms_key, lang):
        way = t("parse.way.forms", lang, verb=fields["verb"], forms=t(forms_key, lang))
    elif game:
        way = t("parse.way.commands", lang, commands=_commands(game))
    else:
        way = t("parse.way.help", lang)
    return {"problem": problem, "way": way}


def render_error(err: Exception, lang: str = "en", game: str | None = None, surface: str | None = None) -> str:
    """A sentence for an `IllegalAction` or `ServiceError`, with the offending items filled in.

    A game may word a shared code its own way: `<game>.error.<CODE>` wins over `error.<CODE>`, and
    variants (`error.<CODE>.<why>`, for E_PHASE also `.<action>.<phase>` and `.<phase>`) pick a more
    specific sentence where one exists. A `surface` ("web") may word a code for itself
    (`<surface>.error.<CODE>`, with its variants): a page has no message to type a command in."""
    code = getattr(err, "code", None)
    params: dict[str, Any] = dict(getattr(err, "params", {}) or {})
    if code is None:
        return excerpt(str(err), _PARAM_MAX["detail"])
    text_params = {k: _param_text(k, v, lang, game) for k, v in params.items()}
    if code == "E_PARSE":
        text_params.update(_parse_words(params, text_params, lang, game))
    if code == "E_BAD_REF":
        # The draft reference the player typed, each part named in words ("meld 3, tile r5").
        parts = [t(f"ref.{k}", lang, value=v) if has(f"ref.{k}", lang) else f"{k} {v}" for k, v in params.items()]
        text_params["ref"] = excerpt(", ".join(parts), _OTHER_MAX)
    held, named = params.get("held"), params.get("named")
    if isinstance(held, dict) and isinstance(named, dict):
        text_params["counts"] = "; ".join(
            t("error.count_short", lang, tile=tile, held=n, named=named.get(tile, "?")) for tile, n in held.items()
        )
    if isinstance(params.get("index"), int):
        text_params["nth"] = ordinal(params["index"], lang)
    bases = ([f"{surface}.error.{code}"] if surface else []) + ([f"{game}.error.{code}"] if game else []) \
        + [f"error.{code}"]
    keys = [f"{b}.{v}" for v in _variants(code, params) for b in bases] + bases
    for key in keys:
        if has(key, lang):
            return t(key, lang, **text_params)
    return t("error.unknown", lang, code=code)


def render_lobby(rec: TableRecord, lang: str = "en", max_seats: int | None = None) -> str:
    """The lobby message: game, host, seats, and every option with its value in words."""
    host = next(
        (s.name for s in rec.seats if s.platform == rec.host_platform and s.user_id == rec.host_user_id), "?"
    )
    lines = [t("lobby.title", lang, game=t(f"game.{rec.game}", lang), host=display_name(host))]
    lines.append(t("lobby.seats", lang, count=len(rec.seats), max=max_seats or "?"))
    lines += [t("lobby.seat_line", lang, seat=i + 1, name=seat_name(s, lang)) for i, s in enumerate(rec.seats)]
    # One option a line, in words ("Turn timer: 60 s"); typing them is `key=value` (the help says so).
    lines.append(t("lobby.options", lang))
    lines += [f"  {option_line(k, v, lang)}" for k, v in rec.options.items()]
    return "\n".join(lines)
