"""The engine contract every game keeps (ARCHITECTURE.md, "The engine contract").

A game is data plus pure functions: `state` is a JSON-native dict that round-trips exactly,
`apply` returns a new state and never mutates the one it was given, and randomness comes only from
the seed. The table service owns every side effect.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar, Protocol, Self, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from rules.core.errors import IllegalAction, SetupError
from rules.core.moves import MoveTemplate
from rules.core.options import option_problems, texts_to_choices
from rules.core.staging import StageReport

State = dict[str, Any]


class Action(BaseModel):
    """Base of every game's actions: immutable, comparable, JSON-able.

    `service_only` marks actions that only the table service may apply (the turn timeout);
    a player typing them is refused by the service.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    service_only: ClassVar[bool] = False


@dataclass(frozen=True)
class Event:
    """Something that happened, in the past tense (`TileDrawn`, `MeldLaid`).

    `seat` is None for a public event, else the only seat that may see it.
    """

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    seat: int | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.seat is None or self.seat == seat

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "seat": self.seat}


@dataclass(frozen=True)
class Hint:
    """A suggested action and why (rules/core/hints.py): `reason` a code with numbers in `params`
    that the catalogs word per language."""

    action: Action
    reason: str
    params: dict[str, Any] = field(default_factory=dict)


class RoundResult(BaseModel):
    """The outcome of a finished round (a "game" in Rummikub's words) and of the match so far."""

    round_scores: list[int]
    totals: list[int]
    winners: list[int]
    match_over: bool = False
    match_winners: list[int] = []
    teams: list[list[int]] | None = None
    details: dict[str, Any] = {}


class GameOptions(BaseModel):
    """Base for a game's table options: unknown keys and out-of-range values are errors.

    Values may be typed (the option buttons) or text (`key=value` in a chat or the terminal); text
    is read the way pydantic reads it, plus Literal choices from their spelling (rules/core/options.py).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _text_choices(cls, data: Any) -> Any:
        return texts_to_choices(cls.model_fields, data)

    @classmethod
    def parse_options(cls, raw: dict[str, Any] | None) -> Self:
        """The options, or `SetupError` whose code/params describe the first refused option."""
        try:
            return cls.model_validate(raw or {})
        except ValidationError as err:
            problems = []
            for e in err.errors():
                where = ".".join(str(p) for p in e["loc"]) or "options"
                problems.append(f"{where}: {e['msg']}")
            code, params = option_problems(cls.model_fields, err)[0]
            raise SetupError("bad option " + "; ".join(problems), code, **params) from err


@runtime_checkable
class Engine(Protocol):
    """What the table service, adapters and tests rely on for every game."""

    name: str
    min_seats: int
    max_seats: int
    options_model: type[GameOptions]
    # State keys of what some seat may not see: the per-seat hands (a list by seat) and the
    # face-down stock (a list). The contract tests deal these differently to prove views hide them.
    hidden_zones: tuple[str, str]

    def new_game(
        self,
        seats: int,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        deck: list[str] | None = None,
    ) -> State: ...

    def current_seat(self, state: State) -> int | None: ...

    def parse(self, text: str) -> Action: ...

    def format(self, action: Action) -> str: ...

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def views(self, state: State, seats: Iterable[int]) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """The public view and the view of each of `seats`, each equal to `view(state, seat)`, with
        what they share (the table's analysis) built once. The views share that structure: read-only."""
        ...

    def result(self, state: State) -> RoundResult | None: ...

    def next_round(self, state: State) -> State: ...

    # Beyond the core contract: what the service and the contract tests need.
    def timeout_action(self, state: State) -> Action:
        """The action the service applies for the seat on turn when its deadline passes."""
        ...

    def ai_action(self, state: State, seat: int, rng: Random, level: str = "normal") -> Action:
        """A legal action for `seat` chosen by the game's AI at `level` ("easy", "normal", "strong":
        rules/core/levels.py) from that seat's view only."""
        ...

    def stand_in_action(self, state: State, seat: int, rng: Random) -> Action:
        """The move made for a present seat whose player is away (`/away`): the AI by default,
        or the spec's auto-play policy where the spec names one for absent players."""
        ...

    def all_items(self, state: State) -> list[str]:
        """Every tile/card in every zone, for conservation checks."""
        ...

    def help_text(self) -> list[tuple[str, str]]:
        """The text grammar: (command, meaning key) pairs for `help`."""
        ...

    def moves(self, view: dict[str, Any]) -> list[MoveTemplate]:
        """The moves the viewing seat can make now, as templates (rules/core/moves.py), computed from
        `view(state, seat)` alone, so they can never depend on what that seat may not see. The list
        always holds every template of the game in one order; `available` says which are legal now."""
        ...

    def stage_report(self, view: dict[str, Any], groups: Sequence[Sequence[str]]) -> StageReport:
        """The staged melds `groups` (hand items, rules/core/staging.py) judged from `view` alone by
        the game's own meld and batch checks: what a `melds` slot filled with them would meet."""
        ...

    def suggestions(self, view: dict[str, Any]) -> list[Hint]:
        """The seat's few best complete moves now (an opening with its value, a take that pays, a
        play going out), from the game's own search over `view` alone, best first; deterministic
        for a view, so a press naming one by its index means the same move when it is decoded."""
        ...


class MatchEngine:
    """The shell every engine here shares: a match of rounds whose JSON state holds `turn`,
    `round_over` and `match_over`. Engines inherit it and keep their rules to themselves."""

    title: str  # the game's name in setup errors
    min_seats: int
    max_seats: int

    def current_seat(self, state: State) -> int | None:
        return None if state["round_over"] else state["turn"]

    def check_seats(self, seats: object) -> None:
        if not isinstance(seats, int) or not self.min_seats <= seats <= self.max_seats:
            raise SetupError(f"seats: {self.title} takes {self.min_seats} to {self.max_seats} players, not {seats}")

    # ---- views -------------------------------------------------------------------------------
    # A view is the public part (what a spectator sees) plus, for a seat, the keys only that seat
    # sees. `views` builds the public part once for all the seats an outcome shows, and each seat's
    # part may read it (the table's analysis) instead of working it out again.

    def public_view(self, state: State) -> dict[str, Any]:
        """What everyone may see, without "you": a new dict each call."""
        raise NotImplementedError

    def seat_view(self, state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        """The keys only `seat` sees (its hand, the hints drawn from it), as a new dict. `public` is
        `public_view(state)` with "you" set to `seat`: read it, never change it."""
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        v = self.public_view(state)
        v["you"] = seat
        if seat is not None:
            v.update(self.seat_view(state, seat, v))
        return v

    def views(self, state: State, seats: Iterable[int]) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        public = self.public_view(state)
        public["you"] = None
        private = {}
        for seat in seats:
            # A shallow copy: the seats' views share the public part's lists instead of rebuilding them.
            v = {**public, "you": seat}
            v.update(self.seat_view(state, seat, v))
            private[seat] = v
        return public, private

    # ---- staging and suggestions (issue 25) ----------------------------------------------------
    # Games without compound moves made of several melds judge nothing and suggest nothing.

    def stage_report(self, view: dict[str, Any], groups: Sequence[Sequence[str]]) -> StageReport:
        return StageReport()

    def suggestions(self, view: dict[str, Any]) -> list[Hint]:
        return []

    @staticmethod
    def check_next_round(state: State) -> None:
        """`next_round` is for a finished round of a match still going on."""
        if state["round_over"] is None:
            raise IllegalAction("E_ROUND_IN_PLAY")
        if state["match_over"]:
            raise IllegalAction("E_MATCH_OVER")
