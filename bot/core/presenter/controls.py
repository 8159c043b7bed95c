"""A seat's hand controls, platform-neutral: the items to pick, the legal moves for the picks and the
staged melds, the engine's report on those melds (`stage_report`), its suggested moves, and the
two-step table-item move, all from the engine (`engine.moves(view)` through bot.core.grammar) and
the hand screen. Telegram lays them out as inline buttons, Discord as selects and buttons, the web
page as taps; the chats encode presses with bot.core.codec and hand them back to `press`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.grammar import controls as grammar_controls
from bot.core.grammar import hand_items, melds_filling, move_template, staging_template
from bot.core.i18n import has, t
from bot.core.presenter.games import IllegalAction, stage_report, suggested
from bot.core.presenter.hand_ui import HandUI
from bot.core.render.common import render_error
from bot.core.text import excerpt
from rules import get_engine
from rules.core.moves import MoveTemplate


@dataclass(frozen=True)
class Item:
    """One hand item to pick (a tile or a card), at `index` in the seat's hand items."""

    index: int
    label: str
    selected: bool


@dataclass(frozen=True)
class Action:
    """A move button: template `index` of the seat's moves, its enumerated `option` (None if none),
    whether it sends the picked items (encoded `cmd <seat> <index> <mask> [<option>]`)."""

    index: int
    option: int | None
    label: str
    with_items: bool


@dataclass(frozen=True)
class Choice:
    """A table item that can be moved, or where the picked one can go (an option of the move's slot)."""

    option: int
    label: str
    new: bool = False  # the destination "a new meld"


@dataclass(frozen=True)
class Staged:
    """A staged meld (issue 25), `number` from 1 in staging order: its items, and the engine's word
    on it — valid or not (`reason`, worded), what it counts."""

    number: int
    items: tuple[str, ...]
    valid: bool
    value: int
    reason: str = ""


@dataclass(frozen=True)
class Staging:
    """The staged melds and the batch: the running `total` (points, or pairs when `unit` is
    "pairs") against `target` (None: no threshold now), `ready` when the engine's batch checks
    pass, else `problem` worded (empty when only the threshold is short: total/target say it).
    `picked` is the engine's word on the picks as the batch's last meld, when there are picks."""

    melds: tuple[Staged, ...]
    total: int
    target: int | None
    unit: str
    ready: bool
    problem: str = ""
    picked: Staged | None = None


@dataclass(frozen=True)
class Suggestion:
    """A suggested complete move (issue 25): pressing it sends `command`; `index` is its place in
    the engine's suggestion list for this table version (what a press carries)."""

    index: int
    label: str
    command: str


@dataclass(frozen=True)
class HandControls:
    """`playing`: the match goes on (else nothing to press). Off turn only sorting is offered.
    `move_index` is the template of the two-step move when the game has one available now; while
    `choosing`, `pieces` are the table items to pick; once `moving` is set, `targets` are where it goes."""

    playing: bool
    my_turn: bool
    items: tuple[Item, ...] = ()
    actions: tuple[Action, ...] = ()
    move_index: int | None = None
    move_label: str = ""
    pieces: tuple[Choice, ...] = ()
    targets: tuple[Choice, ...] = ()
    choosing: bool = False
    moving: int | None = None
    picks: tuple[int, ...] = ()  # the selected items, in the order picked
    can_stage: bool = False  # the picks can be staged as a meld of a compound move
    staging: Staging | None = None  # the staged melds, when there are any
    suggestions: tuple[Suggestion, ...] = ()


def label_of(key: str, verb: str, lang: str) -> str:
    """A move's name in the player's language (the verb itself only where no catalog has it)."""
    return t(key, lang) if has(key, lang) else verb


def action_label(base: str, detail: str, with_items: bool) -> str:
    """`add →8` for a move into an option with the picks, `take 3` for a plain option, `lay ✓` for the picks."""
    if detail:
        return f"{base} →{detail}" if with_items else f"{base} {detail}"
    return f"{base} ✓" if with_items else base


def templates_of(game: str, view: dict[str, Any]) -> list[MoveTemplate]:
    return get_engine(game).moves(view)


def hand_controls(game: str, view: dict[str, Any], seat: int, ui: HandUI, lang: str, playing: bool,
                  templates: list[MoveTemplate] | None = None, suggest: bool = True) -> HandControls:
    """`suggest`: offer the engine's suggested moves (its search runs; a typing prompt skips it)."""
    if not playing:
        return HandControls(False, False)
    if view.get("turn") != seat:
        return HandControls(True, False)
    templates = templates if templates is not None else templates_of(game, view)
    found = move_template(templates)
    move_index = move_label = None
    pieces: tuple[Choice, ...] = ()
    if found is not None:
        move_index, tpl = found
        move_label = label_of(tpl.label_key, tpl.verb, lang)
        source, target = tpl.open_slots()
        pieces = tuple(Choice(k, source.label(o)) for k, o in enumerate(source.options))
        if ui.moving is not None and ui.moving < len(source.options):
            targets = tuple(Choice(k, t("tg.btn.to_new", lang) if o == "new" else target.label(o), o == "new")
                            for k, o in enumerate(target.options))
            return HandControls(True, True, move_index=move_index, move_label=move_label, pieces=pieces,
                                targets=targets, moving=ui.moving)
        if ui.choosing:
            return HandControls(True, True, move_index=move_index, move_label=move_label, pieces=pieces,
                                choosing=True)
    hand = hand_items(view)
    held = ui.staged_items
    picks = [i for i in ui.picks if i < len(hand) and i not in held]
    staged = [[hand[i] for i in group] for group in ui.staged if all(i < len(hand) for i in group)]
    picked = [hand[i] for i in picks]
    items = tuple(Item(i, item, i in picks) for i, item in enumerate(hand) if i not in held)
    actions = tuple(
        Action(c.index, c.option,
               action_label(label_of(c.label_key, c.verb, lang), c.detail, c.with_items), c.with_items)
        for c in grammar_controls(templates, picked, staged))
    stager = staging_template(templates)
    return HandControls(True, True, items, actions, move_index, move_label or "", pieces if not picks else (),
                        picks=tuple(picks), can_stage=stager is not None and bool(picks),
                        staging=staging_of(game, view, stager[1], staged, picked, lang) if stager and staged else None,
                        suggestions=suggestions_of(game, view, lang) if suggest else ())


def staging_of(game: str, view: dict[str, Any], tpl: MoveTemplate, staged: list[list[str]], picked: list[str],
               lang: str) -> Staging:
    """The engine's report on the staged melds, and on the picks as the batch's last meld."""
    slot = next(s for s in tpl.open_slots() if s.kind == "melds")
    groups = melds_filling(slot, picked, staged)
    if groups and slot.join:
        groups[-1] = [*groups[-1], *slot.join]  # the top discard a take uses joins the last meld
    report = stage_report(game, view, groups)
    shown = [Staged(k, tuple(g), r.valid, r.value, _reason(r.reason, lang))
             for k, (g, r) in enumerate(zip(groups, report.melds, strict=True), start=1)]
    problem = ""
    if report.problem and report.problem not in ("E_THRESHOLD", "E_INVALID_MELD"):  # the lines say those
        problem = render_error(IllegalAction(report.problem, **report.params), lang, game)
    last = shown.pop() if picked and len(shown) > len(staged) else None
    return Staging(tuple(shown), report.total, report.target, report.unit, report.ready, problem, last)


def _reason(reason: str | None, lang: str) -> str:
    if not reason:
        return ""
    key = f"meld_reason.{reason}"
    return t(key, lang) if has(key, lang) else reason


SUGGESTION_LABEL_MAX = 40  # a button's text: Discord cuts labels at 80, a phone row shows ~40


def suggestions_of(game: str, view: dict[str, Any], lang: str) -> tuple[Suggestion, ...]:
    out = []
    for k, (command, hint) in enumerate(suggested(game, view)):
        key = f"suggest.{hint.reason}"
        label = t(key, lang, **hint.params) if has(key, lang) else command
        out.append(Suggestion(k, excerpt(label, SUGGESTION_LABEL_MAX), command))
    return tuple(out)


def staging_lines(staging: Staging | None, lang: str) -> tuple[str, ...]:
    """The staged melds as lines for a hand's text: each meld with the engine's word on it, the picks
    as the batch's last meld, the running total against the threshold, and what the engine would
    refuse the batch for (or that it can be sent)."""
    if staging is None:
        return ()
    out = []
    for meld in staging.melds:
        key = "stage.meld" if meld.valid else "stage.meld_bad"
        out.append(t(key, lang, number=meld.number, items=" ".join(meld.items), value=meld.value, reason=meld.reason))
    if staging.picked is not None:
        p = staging.picked
        out.append(t("stage.picked" if p.valid else "stage.picked_bad", lang, items=" ".join(p.items),
                     value=p.value, reason=p.reason))
    if staging.target is None:
        out.append(t("stage.total_free", lang, total=staging.total))
    else:
        key = "stage.total_pairs" if staging.unit == "pairs" else "stage.total"
        out.append(t(key, lang, total=staging.total, target=staging.target))
    if staging.problem:
        out.append(staging.problem)
    elif staging.ready:
        out.append(t("stage.ready", lang))
    return tuple(out)
