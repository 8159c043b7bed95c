"""A press on a seat's hand, decoded once, by the service, against the table it reads under the
table's gate: one read of the table, the seat found once, the seat's view and legal moves built
once, then either a new hand screen or the move applied on that same record (issue 25, item 3).

Every surface translates its own input into one of the presses below (a chat button's `ButtonData`,
the web page's move body, a terminal key) and renders what comes back; none of them rebuilds the
game to decode a press. What a press means is `bot/core/presenter/press.py` (the same on every
surface); `decoded` is the one sequence that runs it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot.core.codec import MAX_MASK_ITEMS, CodecError, indices_of
from bot.core.ledger import EngineFor, Ledger
from bot.core.lobby import seat_of
from bot.core.models import Outcome, Player, ServiceError
from bot.core.presenter import press
from bot.core.presenter.hand_ui import HandUI
from rules import IllegalAction
from rules.core.moves import MoveTemplate
from storage import ActionKeyRecord, TableRecord

# ---- the presses -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pick:
    """The seat's whole selection is now `chosen` (in the order given); with `within`, a select
    holding only those items was changed and the picks outside it stay."""

    chosen: tuple[int, ...]
    within: range | None = None

    @classmethod
    def of_mask(cls, mask: str) -> Pick:
        """A button's hex selection mask; positions past the hand are refused at decode."""
        return cls(tuple(indices_of(mask, MAX_MASK_ITEMS)))


@dataclass(frozen=True)
class Command:
    """Move template `index` with the picked items of `mask` (in pick order) and `option`."""

    index: int
    mask: str = "0"
    option: int | None = None


@dataclass(frozen=True)
class Suggest:
    """Suggested move `index` of the engine's list for the seat's view."""

    index: int


@dataclass(frozen=True)
class StartMove:
    """The first step of the two-step table-item move: choose the item to move."""


@dataclass(frozen=True)
class ChoosePiece:
    """The table item at option `piece` of the move's first slot is the one to move."""

    piece: int


@dataclass(frozen=True)
class MoveTo:
    """Template `index`'s table item at option `piece` goes to destination `dest`."""

    index: int
    piece: int
    dest: int


@dataclass(frozen=True)
class Back:
    """Out of a table-item move in progress; with `unpick`, the picks dropped too (the terminal's Esc)."""

    unpick: bool = False


@dataclass(frozen=True)
class Stage:
    """The picks become the next staged meld."""


@dataclass(frozen=True)
class Unstage:
    """Staged meld `number` (from 1) back to the hand."""

    number: int


@dataclass(frozen=True)
class Clear:
    """Every staged meld back to the hand, the picks dropped."""


@dataclass(frozen=True)
class Typed:
    """A whole command built by the surface from checked pieces (the web page's Rummikub layout as
    one `play`): applied as it stands, through the same entry."""

    text: str


Press = Pick | Command | Suggest | StartMove | ChoosePiece | MoveTo | Back | Stage | Unstage | Clear | Typed

# The chat buttons' verbs that are presses on a hand (`<verb> <seat> …`, bot/core/codec.py).
BUTTON_VERBS = ("pick", "cmd", "sug", "mvs", "mvt", "mv", "back", "stage", "unstage", "clear")


def ints(words: Sequence[str], count: int) -> list[int]:
    """`count` numbers, or `CodecError` (a press's arguments or a select's values)."""
    if len(words) != count or not all(w.isdigit() for w in words):
        raise CodecError("bad arguments")
    return [int(w) for w in words]


def button_press(verb: str, args: Sequence[str]) -> Press:
    """A chat button's press: its verb and the arguments after the seat (a selection as a mask).
    A select's values are the surface's to read (`Pick(…, within)`, `ChoosePiece`). `CodecError`
    for anything that does not read so."""
    if verb == "pick" and len(args) == 1:
        return Pick.of_mask(args[0])
    if verb == "cmd" and len(args) in (2, 3):
        option = ints(args[2:], 1)[0] if len(args) == 3 else None
        return Command(ints(args[:1], 1)[0], args[1], option)
    if verb == "mvt":
        return ChoosePiece(ints(args, 1)[0])
    if verb == "mv":
        return MoveTo(*ints(args, 3))
    if verb == "sug":
        return Suggest(ints(args, 1)[0])
    if verb == "unstage":
        return Unstage(ints(args, 1)[0])
    if not args:
        simple: dict[str, Press] = {"mvs": StartMove(), "back": Back(), "stage": Stage(), "clear": Clear()}
        if verb in simple:
            return simple[verb]
    raise CodecError("bad press")


# ---- who presses, and where the hand screen lives -----------------------------------------------


@dataclass(frozen=True)
class Presser:
    """Who pressed. `player` None: whoever plays `seat` (a signed seat link grants the seat, not a
    person). `seat`, when the press names one (a chat button is made for one seat): another seat's
    press is answered `NotYours`."""

    player: Player | None
    seat: int | None = None


class Screens(Protocol):
    """Where a seat's hand screen is kept between presses (`HandUIs`, the store's)."""

    async def get(self, table_id: str, seat: int) -> HandUI: ...

    async def put(self, table_id: str, seat: int, ui: HandUI) -> None: ...

    async def moved(self, table_id: str, seat: int) -> None: ...


@dataclass(frozen=True)
class PageScreen:
    """A screen the surface keeps itself and sends with the press (the web page's picks and staged
    melds): read from the press, never stored."""

    ui: HandUI = HandUI()

    async def get(self, table_id: str, seat: int) -> HandUI:
        return self.ui

    async def put(self, table_id: str, seat: int, ui: HandUI) -> None:
        return None

    async def moved(self, table_id: str, seat: int) -> None:
        return None


# ---- what a press gives ------------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    """A new hand screen (stored in the `Screens` given): show the seat's hand again."""

    table: TableRecord
    seat: int
    screen: HandUI


@dataclass(frozen=True)
class Played:
    """The move `command` was applied and is durable (`TableService.submit`'s outcome: render
    `await outcome.settled()`); the seat's screen was reset (`Screens.moved`)."""

    outcome: Outcome
    seat: int
    command: str
    prev_turn: int | None  # whose turn it was before the move (a turn notice is due when it changes)


@dataclass(frozen=True)
class Refused:
    """Nothing changed: `error` says why (its code and parameters as a typed move's refusal).
    `table` is the table as read (None when there is none), `seat` the presser's (None: unseated)."""

    error: ServiceError | IllegalAction | CodecError
    table: TableRecord | None
    seat: int | None


@dataclass(frozen=True)
class NotYours:
    """A button made for another seat than the presser's (`seat`)."""

    table: TableRecord
    seat: int


Pressed = Shown | Played | Refused | NotYours

# ---- the decode --------------------------------------------------------------------------------

Play = Callable[[TableRecord, int, Player, str, str | None], Awaitable[Outcome]]
Repeat = Callable[[ActionKeyRecord], Awaitable[Outcome]]


def decoded(game: str, view: dict[str, Any], templates: list[MoveTemplate], ui: HandUI, pressed: Press
            ) -> HandUI | str:
    """What `pressed` means for the seat whose view and legal moves these are, with its hand screen
    `ui`: a new hand screen, or the command text of a move. `CodecError` for a press that no longer
    fits (a stale or broken button). Pure: the terminal's key finder and the chat's autocomplete
    ask it too."""
    match pressed:
        case Pick(chosen, within):
            if within is None:
                return press.pick(ui, view, list(chosen))
            return press.pick_part(ui, view, within, list(chosen))
        case Command(index, mask, option):
            return press.command(ui, view, templates, index, mask, option)
        case Suggest(index):
            return press.suggestion(game, view, index)
        case StartMove():
            return press.start_move(ui, templates)
        case ChoosePiece(piece):
            return press.choose_piece(ui, templates, piece)
        case MoveTo(index, piece, dest):
            return press.move_to(templates, index, piece, dest)
        case Back(unpick):
            return replace(press.back(ui), picks=()) if unpick else press.back(ui)
        case Stage():
            return press.stage(ui, view, templates)
        case Unstage(number):
            return press.unstage(ui, number)
        case Clear():
            return press.clear(ui)
        case Typed(text):
            return text
    raise CodecError("unknown press")


class Presses:
    """The service's one entry for a press on a hand. Given the ledger (the gate, the fresh read,
    the retries and the idempotency key), the engine lookup, and the service's `play` (a move
    applied for a seat already found, on the record already read) and `repeat` (a redelivery's
    answer)."""

    def __init__(self, ledger: Ledger, *, engine_for: EngineFor, play: Play, repeat: Repeat) -> None:
        self.ledger = ledger
        self.engine_for = engine_for
        self.play = play
        self.repeat = repeat

    async def press(self, table_id: str, who: Presser, pressed: Press, screens: Screens, *,
                    version: int | None, key: str | None = None, platform: str | None = None,
                    admit: Callable[[int], None] | None = None) -> Pressed:
        """Decode `pressed` by `who` against table `table_id` as stored now, under its gate: a new
        screen (`Shown`, stored in `screens`), the move applied (`Played`), another seat's button
        (`NotYours`) or a refusal (`Refused`, nothing changed). `version` is the table version the
        press was made at (None: the table as it is now); an older one is refused `E_STALE`,
        unless `key` was already applied (a redelivery: answered as the first time). `platform`:
        a table of another platform is no table here. `admit` is told the presser's seat once it
        is found, before any decode, and may raise to turn the press away (the web's move rate per
        seat); what it raises passes through, nothing done."""
        seen: dict[str, Any] = {}

        async def attempt(rec: TableRecord) -> Pressed:
            seen.update(table=rec, seat=None, prev_turn=None)
            if platform is not None and rec.platform != platform:
                raise ServiceError("E_NO_TABLE")
            if rec.status != "playing" or rec.state is None:
                raise ServiceError("E_NOT_PLAYING")
            seat, player = _seat(rec, who)
            seen["seat"] = seat
            if who.seat is not None and who.seat != seat:
                return NotYours(rec, seat)
            if admit is not None:
                admit(seat)
            if version is not None and version != rec.version:
                raise ServiceError("E_STALE", version=version, current=rec.version)
            engine = self.engine_for(rec)
            seen["prev_turn"] = prev_turn = engine.current_seat(rec.state)
            if isinstance(pressed, Typed):  # whole already: no view or moves to build
                meant: HandUI | str = pressed.text
            else:
                view = engine.view(rec.state, seat)
                meant = decoded(rec.game, view, engine.moves(view), await screens.get(rec.id, seat), pressed)
            if isinstance(meant, HandUI):
                await screens.put(rec.id, seat, meant)
                return Shown(rec, seat, meant)
            outcome = await self.play(rec, seat, player, meant, key)
            await screens.moved(rec.id, seat)  # the picks and staged melds pointed at items the move used
            return Played(outcome, seat, meant, prev_turn)

        async def repeat(done: ActionKeyRecord) -> Pressed:
            outcome = await self.repeat(done)
            seat = seen.get("seat")
            if seat is None:  # refused before the seat was found (the first delivery ended the match)
                seat, _ = _seat(outcome.table, who)
            return Played(outcome, seat, str(done.reply.get("command", "")), seen.get("prev_turn"))

        try:
            return await self.ledger.keyed(table_id, key, attempt, repeat)
        except (ServiceError, IllegalAction, CodecError) as err:
            return Refused(err, seen.get("table"), seen.get("seat"))


def _seat(rec: TableRecord, who: Presser) -> tuple[int, Player]:
    """The presser's seat and the person playing it; `E_NOT_SEATED` when they have none."""
    if who.player is None:
        seat = who.seat
        s = rec.seats[seat] if seat is not None and 0 <= seat < len(rec.seats) else None
        if seat is None or s is None or s.kind != "human" or s.platform is None or s.user_id is None:
            raise ServiceError("E_NOT_SEATED")
        return seat, Player(s.platform, s.user_id, s.name)
    found = seat_of(rec, who.player)
    if found is None:
        raise ServiceError("E_NOT_SEATED")
    return found, who.player
