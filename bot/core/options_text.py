"""Table options typed as `key=value` words: one reading for the terminal, Telegram and Discord.

Only the words are read here; what a value means (the 3 of `match_rounds=3`, `on` for a bool) is
the options model's business (`GameOptions.parse_options`, rules/core/options.py), so text and the
option buttons store the same thing. A refused option becomes one `E_BAD_OPTION` variant per
reason code, worded by the catalogs (`error.E_BAD_OPTION.<why>`).
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import Any

from bot.core.models import ServiceError
from rules import Engine, SetupError

# Phones type curly quotes; `match_length="3 rounds"` should survive them.
_QUOTES = str.maketrans({"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'"})


def option_words(text: str) -> list[str]:
    """The words of a command line, a quoted value kept whole (`match_length="3 rounds"`)."""
    try:
        return shlex.split(text.translate(_QUOTES))
    except ValueError:  # an unclosed quote
        raise ServiceError("E_OPTION_SYNTAX", word=text.strip()) from None


def parse_option(word: str) -> tuple[str, str]:
    """`Match-Rounds = 3` → ("match_rounds", "3"): keys are case- and dash-insensitive."""
    key, sep, value = word.partition("=")
    key = key.strip().lower().replace("-", "_")
    if not sep or not key:
        raise ServiceError("E_OPTION_SYNTAX", word=word)
    return key, value.strip()


def parse_options(words: Iterable[str]) -> dict[str, str]:
    """`key=value` words as a dict of text values (a repeated key: the last one wins)."""
    return dict(parse_option(word) for word in words)


def options_from_text(text: str) -> dict[str, str]:
    """A whole options line: `turn_timer_s=120 match_length="3 rounds"`."""
    return parse_options(option_words(text))


def _param(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return value


def bad_option(err: SetupError, engine: Engine) -> ServiceError:
    """`E_BAD_OPTION` for a refused option: the reason code picks the sentence (`why`), its
    params fill it. A `SetupError` with no code (seats, deck) keeps its message as `detail`."""
    params = {key: _param(value) for key, value in err.params.items()}
    if err.code == "seat" and params.get("hi") is None:
        params["hi"] = engine.max_seats  # the model allows any seat from 1; the table has at most this many
    if err.code is not None:
        params["why"] = err.code
    return ServiceError("E_BAD_OPTION", **{"game": engine.name, **params, "detail": str(err)})
