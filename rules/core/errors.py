"""Errors raised by game engines.

`IllegalAction` carries a stable reason code from a game's spec and the parameters that say what
was wrong; adapters turn code + params into a sentence through the translation layer, so no
player-facing text lives here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, TypeVar

T = TypeVar("T")


class IllegalAction(Exception):
    """A rejected action. `code` is the spec's reason code (`E_NOT_YOUR_TURN`, ...)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, Any] = params

    def __str__(self) -> str:
        if not self.params:
            return self.code
        details = ", ".join(f"{k}={v!r}" for k, v in sorted(self.params.items()))
        return f"{self.code} ({details})"


class SetupError(ValueError):
    """Bad arguments to `new_game`: seats, options or a stacked deck. The message names the problem
    (for logs); a refused option also carries a reason `code` and `params` (rules/core/options.py)
    that the adapters word per language, like `IllegalAction`'s."""

    def __init__(self, message: str, code: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, Any] = params


def names_command(parse: Callable[[str], T]) -> Callable[[str], T]:
    """Wrap a game's `parse`: an `E_PARSE` raised while reading a known command's arguments gets a
    `verb` param (the command typed), so the sentence can list that command's forms. An unknown
    command (`expected="command"`) keeps no verb: there is none to name."""

    @wraps(parse)
    def parse_naming_the_command(text: str) -> T:
        try:
            return parse(text)
        except IllegalAction as err:
            if err.code == "E_PARSE" and err.params.get("expected") != "command" and isinstance(text, str):
                first = re.split(r"[\s;]+", text.strip(), maxsplit=1)[0].lstrip("/").lower()
                if first:
                    err.params.setdefault("verb", first)
            raise

    return parse_naming_the_command


def not_held(code: str, hand: Iterable[str], named: Iterable[str], missing: list[str]) -> IllegalAction:
    """A not-in-hand refusal (`E_NOT_IN_HAND`, `E_NOT_ON_RACK`) naming the missing items; where the
    player holds some copies, but fewer than named, both counts go along (`held`, `named`, why
    `count`) so the sentence can say "you have one j, not two" instead of "j is not in your hand"."""
    have, want = Counter(hand), Counter(named)
    short = sorted({t for t in missing if have[t] > 0})
    if not short:
        return IllegalAction(code, tiles=missing)
    return IllegalAction(code, tiles=missing, why="count", held={t: have[t] for t in short},
                         named={t: want[t] for t in short})
