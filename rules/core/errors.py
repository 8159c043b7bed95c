"""Errors raised by game engines.

`IllegalAction` carries a stable reason code from a game's spec and the parameters that say what
was wrong; adapters turn code + params into a sentence through the translation layer, so no
player-facing text lives here.
"""

from __future__ import annotations

from typing import Any


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
