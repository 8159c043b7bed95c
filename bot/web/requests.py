"""Every field a request may carry, typed and bounded, checked before any work: a body is parsed
and validated in one step by pydantic's JSON parser (whose nesting limit answers a deeply nested
body with an error, where Python's json would raise RecursionError), and a refusal names the field
and what is wrong with it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from bot.core.codec import MAX_MASK_ITEMS
from bot.web.layout import MAX_MELDS

MAX_RUN = 13  # the longest meld: a run 1..13 (a group has 4 tiles)
MAX_PICK = MAX_MASK_ITEMS - 1  # a pick is an item's position, carried in a button mask of this many bits
MAX_PICKS = MAX_MASK_ITEMS
MAX_LINK = 200  # a seat link: table id, seat, expiry and a 32-digit signature (~70 characters)
MAX_INIT_DATA = 4096  # a Mini App's initData is ~1 KB
MAX_STEP = 100_000  # a replay's step: a match has a few hundred
MAX_STAGED = 40  # staged melds: an opening of pairs has a handful
MAX_SUGGESTION = 20  # a game suggests a few moves

Tile = Annotated[str, StringConstraints(max_length=3)]
Meld = Annotated[list[Tile], Field(max_length=MAX_RUN)]
Layout = Annotated[list[Meld], Field(max_length=MAX_MELDS)]
Pick = Annotated[int, Field(ge=0, le=MAX_PICK)]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class Press(Strict):
    index: int = Field(ge=0, le=10_000)
    option: int | None = Field(None, ge=0, le=10_000)
    picks: list[Pick] = Field(default_factory=list, max_length=MAX_PICKS)
    # The melds staged on the page (issue 25): groups of hand positions, none in two groups.
    staged: list[Annotated[list[Pick], Field(min_length=1, max_length=MAX_PICKS)]] = Field(
        default_factory=list, max_length=MAX_STAGED)

    @model_validator(mode="after")
    def _disjoint(self) -> Press:
        check_staged(self.staged, self.picks)
        return self


def check_staged(staged: Sequence[Sequence[int]], picks: Sequence[int] = ()) -> None:
    """Staged melds are groups of distinct positions that no other group and no pick holds."""
    flat = [i for group in staged for i in group]
    if len(set(flat)) != len(flat) or set(flat) & set(picks):
        raise ValueError("staged: each hand position in one staged meld at most, and not also picked")


class MoveBody(Strict):
    version: int = Field(ge=0, le=2**53)
    key: str = Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")
    play: Layout | None = None
    press: Press | None = None
    suggestion: int | None = Field(None, ge=0, le=MAX_SUGGESTION)  # a suggested move, by its index

    @model_validator(mode="after")
    def _one_move(self) -> MoveBody:
        if sum(x is not None for x in (self.play, self.press, self.suggestion)) != 1:
            raise ValueError("a move is `play` (a layout), `press` (a control) or `suggestion` (its index), "
                             "exactly one of them")
        return self


class CheckBody(Strict):
    layout: Layout


class Query(Strict):
    """The query string of any API request (each field optional; a handler uses what it needs)."""

    k: str | None = Field(None, max_length=MAX_LINK)
    tma: str | None = Field(None, max_length=MAX_INIT_DATA)
    lang: str | None = Field(None, max_length=8)
    picks: str | None = Field(None, max_length=MAX_PICKS * 4, pattern=r"^[0-9,]*$")
    staged: str | None = Field(None, max_length=MAX_PICKS * 4, pattern=r"^[0-9,;]*$")  # `1,2,3;7,8`
    step: str | None = Field(None, max_length=6, pattern=r"^[0-9]+$")

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)  # cache busters and the like pass


def sentence(err: ValidationError) -> str:
    """The first problem, as `field: what is wrong` (a body's client is a program or its developer)."""
    first = err.errors(include_url=False)[0]
    where = ".".join(str(p) for p in first["loc"]) or "body"
    return f"{where}: {first['msg']}"


def picks_of(raw: str | None) -> tuple[int, ...]:
    """A GET's `picks=1,4,7`, each a hand position no larger than a button mask can carry."""
    if not raw:
        return ()
    values = tuple(int(x) for x in raw.split(",") if x != "")
    if len(values) > MAX_PICKS or any(v > MAX_PICK for v in values):
        raise ValueError(f"picks: at most {MAX_PICKS} positions, each from 0 to {MAX_PICK}")
    return values


def staged_of(raw: str | None, picks: tuple[int, ...] = ()) -> tuple[tuple[int, ...], ...]:
    """A GET's `staged=1,2,3;7,8`: the staged melds, each a group of hand positions."""
    if not raw:
        return ()
    groups = tuple(tuple(int(x) for x in g.split(",") if x != "") for g in raw.split(";"))
    if any(not g for g in groups) or len(groups) > MAX_STAGED or any(i > MAX_PICK for g in groups for i in g):
        raise ValueError(f"staged: at most {MAX_STAGED} groups of positions from 0 to {MAX_PICK}, none empty")
    check_staged(groups, picks)
    return groups
