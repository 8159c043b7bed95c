"""The one meld-list notation every game's grammar reads: melds separated by `|`, or each in
brackets `[…]` / parentheses `(…)`, or both mixed (`r5 b5 k5 | [r2 b2 j]`).

The parser only cuts the text into melds of raw tokens; each game reads the tokens itself (tiles,
`j=r11`, …), so the notation is the same everywhere while the items stay each game's own.
Rules of the notation:

- a bracketed meld is one meld; loose words between `|`s or brackets form one meld;
- a bracket ends the loose meld before it (`r1 r2 r3 [k4 k5 k6]` is two melds), `|` between two
  bracketed melds is optional;
- an empty meld (`| |`, `[ ]`, a leading or trailing `|`) is an error naming the `|` or bracket;
- with `prefixes` (Rummikub's `G:`/`R:`), a prefix may stand before a meld, before its bracket or
  just inside it: `G:r5 j j`, `G:[r5 j j]`, `[G:r5 j j]`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.core.errors import IllegalAction

_CLOSERS = {"[": "]", "(": ")"}
_SEPARATOR = "|"


@dataclass(frozen=True)
class MeldText:
    """One meld as typed: its raw tokens in order, and the prefix letter written before it."""

    tokens: tuple[str, ...]
    prefix: str | None = None


def _error(expected: str, token: str) -> IllegalAction:
    return IllegalAction("E_PARSE", expected=expected, token=token)


def _words(text: str, prefixes: str) -> list[str]:
    """Whitespace words with `|`, brackets and `X:` prefixes as words of their own."""
    spaced = re.sub(r"([|\[\]()])", r" \1 ", text)
    if prefixes:
        # `G:r5`, `G : r5`, `G:[` all become the word `G:` (a prefix never sits inside a tile word).
        spaced = re.sub(rf"(?:(?<=\s)|^)([{prefixes}])\s*:\s*", r"\1: ", spaced, flags=re.I)
    return spaced.split()


def _prefix_of(word: str, prefixes: str) -> str | None:
    if prefixes and len(word) == 2 and word[1] == ":" and word[0].upper() in prefixes.upper():
        return word[0].upper()
    return None


def split_melds(text: str, prefixes: str = "") -> tuple[MeldText, ...]:
    """Cut a meld list into melds; `E_PARSE` names the `|`, bracket or prefix that is out of place."""
    words = _words(text, prefixes)
    if not words:
        raise _error("melds", "")
    melds: list[MeldText] = []
    loose: list[str] = []
    pending: str | None = None  # a prefix waiting for its meld
    last = "start"  # "start", "sep" or "meld": what the previous item was
    i = 0

    def flush() -> None:
        nonlocal pending, last
        if loose:
            melds.append(MeldText(tuple(loose), pending))
            loose.clear()
            pending, last = None, "meld"

    while i < len(words):
        word = words[i]
        prefix = _prefix_of(word, prefixes)
        if word == _SEPARATOR:
            if pending is not None and not loose:
                raise _error("meld", f"{pending}:")
            if not loose and last != "meld":
                raise _error("meld", _SEPARATOR)
            flush()
            last = "sep"
        elif word in _CLOSERS:
            flush()
            closer = _CLOSERS[word]
            try:
                end = words.index(closer, i + 1)
            except ValueError:
                raise _error("closing_bracket", word + (words[i + 1] if i + 1 < len(words) else "")) from None
            body = words[i + 1:end]
            stray = [w for w in body if w in _CLOSERS or w in _CLOSERS.values() or w == _SEPARATOR]
            if stray:
                raise _error("closing_bracket", stray[0])
            inner = _prefix_of(body[0], prefixes) if body else None
            if inner is not None:
                if pending is not None:
                    raise _error("one_prefix", body[0])
                pending, body = inner, body[1:]
            if not body:
                raise _error("meld", word + closer)
            melds.append(MeldText(tuple(body), pending))
            pending, last = None, "meld"
            i = end
        elif word in _CLOSERS.values():
            raise _error("stray_closer", word)
        elif prefix is not None:
            if loose or pending is not None:
                raise _error("prefix_after_bar", word)
            pending = prefix
        else:
            loose.append(word)
        i += 1
    if pending is not None and not loose:
        raise _error("meld", f"{pending}:")
    if last == "sep" and not loose:
        raise _error("meld", _SEPARATOR)
    flush()
    return tuple(melds)


def format_melds(melds: list[MeldText] | tuple[MeldText, ...]) -> str:
    """The canonical spelling: melds joined by ` | `, a prefix as `G:` before its meld."""
    return " | ".join((f"{m.prefix}:" if m.prefix else "") + " ".join(m.tokens) for m in melds)
