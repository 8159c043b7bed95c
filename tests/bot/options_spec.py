"""Every table option of every game as the specs' §9 tables give it (shared/rules/<game>.md), for
the options-as-text tests. Written from the specs, not from the models, so a model that drifts from
its spec — or a new option with no row here — fails the tests that use it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.models import ServiceError
from bot.core.options_text import bad_option, options_from_text
from bot.core.render import render_error
from rules import SetupError, get_engine


@dataclass(frozen=True)
class Choices:
    values: tuple[Any, ...]


@dataclass(frozen=True)
class Range:
    lo: int
    hi: int


@dataclass(frozen=True)
class Timer:  # 0 (off) or lo..hi seconds
    lo: int
    hi: int


@dataclass(frozen=True)
class Seat:  # random or a seat 1..n
    pass


BOOL = Choices((False, True))
SEAT = Seat()

SPEC: dict[str, dict[str, Any]] = {
    "rummikub": {
        "turn_timer_s": Timer(15, 300), "timeout_penalty_tiles": Range(0, 3), "initial_meld_min": Range(0, 50),
        "jokers": Choices((0, 1, 2)), "joker_rack_penalty": Range(0, 50),
        "empty_pool_end": Choices(("blocked", "one_more_turn")), "match_games": Range(1, 10), "allow_draw": BOOL,
        "first_player": SEAT,
        "hints": BOOL,  # issue 16: every game, off by default
    },
    "rummy101": {
        "threshold_mode": Choices(("fixed", "increasing")), "joker_button": Choices(("off", "on")),
        "match_rounds": Choices((1, 3, 5, 7, 9, 11)), "allow_draw": BOOL, "turn_timer_s": Timer(30, 600),
        "first_player": SEAT,
        "hints": BOOL,  # issue 16: every game, off by default
    },
    "rummy500": {
        "target_score": Range(100, 1000), "go_out_bonus": Range(0, 50), "jokers": Choices((0, 1, 2)),
        "hand_size": Range(7, 10), "market_leave_one": BOOL, "joker_hand_penalty": Range(0, 50), "allow_draw": BOOL,
        "turn_timer_s": Timer(30, 600), "first_dealer": SEAT,
        "hints": BOOL,  # issue 16: every game, off by default
    },
    "canasta": {
        "match_length": Choices(("1 round", "3 rounds", "target 10000")), "joker_button": Choices(("off", "on")),
        "allow_draw": BOOL, "turn_timer_s": Timer(30, 600), "first_dealer": SEAT,
        "ledger_per_round": Choices((0, 1000)),
        "hints": BOOL,  # issue 16: every game, off by default
    },
    "three_thirteen": {
        "jokers": Choices((0, 2, 4)), "ace_high": BOOL, "rounds": Range(1, 11), "turn_timer_s": Timer(30, 600),
        "first_dealer": SEAT,
        "hints": BOOL,  # issue 16: every game, off by default
    },
}


def accepted(game: str, key: str) -> list[Any]:
    """Values the spec allows: every choice; for a range its bounds and a middle value."""
    kind = SPEC[game][key]
    if isinstance(kind, Choices):
        return list(kind.values)
    if isinstance(kind, Range):
        return [kind.lo, (kind.lo + kind.hi) // 2, kind.hi]
    if isinstance(kind, Timer):
        return [0, kind.lo, (kind.lo + kind.hi) // 2, kind.hi]
    return ["random", *range(1, get_engine(game).max_seats + 1)]


def spellings(value: Any) -> list[str]:
    """Ways a player may type `value`."""
    if value is True:
        return ["true", "True", "ON", "on", "yes", "Yes", "1", "y", "t"]
    if value is False:
        return ["false", "False", "OFF", "off", "no", "No", "0", "n", "f"]
    if isinstance(value, int):
        return [str(value), f" {value} "]
    return sorted({value, value.upper(), value.title(), value.replace(" ", "_"), value.replace("_", " "),
                   value.replace("_", "-").replace(" ", "-")})


def refused(game: str, key: str) -> list[str]:
    """Text the spec does not allow for the option: junk and the nearest values outside it."""
    kind = SPEC[game][key]
    junk = ["nope", "2.5", "", "3 apples"]
    if kind == BOOL:
        return [*junk, "2", "-1", "maybe", "onn"]
    if isinstance(kind, Choices) and all(isinstance(v, int) for v in kind.values):
        outside = [v for v in range(min(kind.values) - 1, max(kind.values) + 2) if v not in kind.values]
        return [*junk, *map(str, outside[:4]), str(max(kind.values) + 1000)]
    if isinstance(kind, Choices):
        return [*junk, "0", f"{kind.values[0]}x", "random"]
    if isinstance(kind, Range):
        return [*junk, str(kind.lo - 1), str(kind.hi + 1), "random"]
    if isinstance(kind, Timer):
        return [*junk, "1", str(kind.lo - 1), str(kind.hi + 1), "-30", "random"]
    max_seats = get_engine(game).max_seats
    return [*junk, "0", "-1", "randomly", "first"] + ([str(max_seats + 1)] if game == "canasta" else [])


def allowed_words(game: str, key: str) -> list[str]:
    """What a refusal must name as allowed."""
    kind = SPEC[game][key]
    if kind == BOOL:
        return ["on", "off"]
    if isinstance(kind, Choices):
        ints = sorted(v for v in kind.values if isinstance(v, int))
        if len(ints) == len(kind.values) and ints == list(range(ints[0], ints[-1] + 1)):
            return [str(ints[0]), str(ints[-1])]  # 0, 1, 2 may read "from 0 to 2"
        return [str(v) for v in kind.values]
    if isinstance(kind, Range):
        return [str(kind.lo), str(kind.hi)]
    if isinstance(kind, Timer):
        return ["0", str(kind.lo), str(kind.hi)]
    return ["random", "1", str(get_engine(game).max_seats)]


# What pydantic says on its own: none of it may reach a player.
RAW_PYDANTIC = ("Input should", "Extra inputs", "Value error", "validation error", "unable to interpret",
                "pydantic", "literal_error", "Bad option", "Неверная настройка")

# Refused option lines, one per kind of refusal, for the surfaces' end-to-end tests.
REFUSALS = [
    ("rummy101", "match_rounds=4"), ("three_thirteen", "rounds=12"), ("rummikub", "turn_timer_s=5"),
    ("three_thirteen", "ace_high=maybe"), ("rummy500", "first_dealer=0"), ("canasta", "first_dealer=5"),
    ("canasta", "ledger_per_round=500"), ("three_thirteen", "match_rounds=3"), ("rummikub", "jokers"),
    ("canasta", 'match_length="3 rounds'),
]


def expected_refusal(game: str, line: str, lang: str) -> str:
    """The sentence the shared path (bot/core/options_text + the options model) gives for `line`."""
    engine = get_engine(game)
    try:
        engine.options_model.parse_options(options_from_text(line))
    except ServiceError as err:
        return render_error(err, lang)
    except SetupError as err:
        return render_error(bad_option(err, engine), lang)
    raise AssertionError(f"{game} {line} is accepted")
