"""The Tile Canasta engine: the 14/15 deal with bonus threes, team melds and opening, the pile take,
going out, stock exhaustion, the Joker button, auto-play, team scoring and matches.

State is a JSON-native dict (see `new_game`). `apply` works on a private copy, so a rejected action
can never leave a half-changed state behind.

The stock is stored in two parts (`rules.canasta.stock`): its regular tiles in draw order, and the
bonus threes in it with their positions, because a bonus three is revealed publicly when drawn
(CAN-14) while the next regular tile is secret.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.canasta import melds as m
from rules.canasta import views
from rules.canasta.actions import (
    Add,
    Discard,
    Draw,
    JokerButton,
    Meld,
    Open,
    TakePile,
    Timeout,
    format_action,
    parse,
)
from rules.canasta.levels import POLICIES
from rules.canasta.moves import moves as legal_moves
from rules.canasta.options import CanastaOptions
from rules.canasta.scoring import TEAMS, leading_team, match_decision, score_round, team_of, threshold
from rules.canasta.stock import pop_stock, split_stock, stock_count
from rules.core.deck import build_deck, deal_blocks, rng_for
from rules.core.engine import Action, Event, MatchEngine, RoundResult, State
from rules.core.errors import IllegalAction, SetupError, not_held
from rules.core.levels import DEFAULT_LEVEL, Level, policy_for
from rules.core.moves import MoveTemplate
from rules.core.state import clone
from rules.core.tiles import parse_tile, tile_set

SEATS = 4
HAND_SIZE = 14
TEAM_LETTERS = "AB"


# Keys of the state that hold a flat list (of tiles, flags or numbers): copied with one slice.
_FLAT_LISTS = ("stock", "pile", "opened", "thresholds", "joker_used", "totals", "ledger", "match_winners")


def _clone_state(state: State) -> State:
    """A deep copy of a state, written for its known shape (the generic `clone` covers the rest):
    `apply` copies the state on every call, and this is several times faster."""
    new = dict(state)
    new["hands"] = [h[:] for h in state["hands"]]
    new["stock_threes"] = [e[:] for e in state["stock_threes"]]
    new["melds"] = [{n: ts[:] for n, ts in team.items()} for team in state["melds"]]
    new["bonus"] = [z[:] for z in state["bonus"]]
    new["history"] = [r[:] for r in state["history"]]
    new["options"] = dict(state["options"])
    for key in _FLAT_LISTS:
        new[key] = state[key][:]
    for key in ("deck", "round_over"):
        new[key] = clone(state[key])
    return new


def _remove(hand: list[str], tiles: Any) -> None:
    for t in tiles:
        hand.remove(t)


class CanastaEngine(MatchEngine):
    name = "canasta"
    title = "Tile Canasta"
    min_seats = SEATS
    max_seats = SEATS
    options_model = CanastaOptions
    hidden_zones = ("hands", "stock")

    # ---- setup -------------------------------------------------------------------------------

    def new_game(
        self,
        seats: int,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        deck: list[str] | None = None,
    ) -> State:
        if seats != SEATS:
            raise SetupError(f"seats: Tile Canasta takes exactly 4 players in two teams, not {seats}")
        opts = CanastaOptions.parse_options(options)
        prefix = [_deck_tile(t) for t in deck] if deck else None
        if prefix is not None and len(prefix) > 106:
            raise SetupError("deck: longer than the tile set")
        if isinstance(opts.first_dealer, int):
            dealer = opts.first_dealer - 1
        elif deck:
            dealer = 0  # CAN-07: a stacked deck deals from P1, so P2 starts
        else:
            dealer = rng_for(seed, "dealer").randrange(SEATS)
        state: State = {
            "game": self.name,
            "options": opts.model_dump(),
            "seed": seed,
            "deck": prefix,
            "seats": SEATS,
            "round": 0,
            "totals": [0, 0],
            "history": [],
            "match_over": False,
            "match_winners": [],
            "ledger": [0] * SEATS,
        }
        self._deal(state, 1, dealer)
        return state

    def _deal(self, state: State, round_number: int, dealer: int) -> None:
        prefix = state["deck"] if round_number == 1 else None
        tiles = build_deck(tile_set(jokers=2), rng_for(state["seed"], "deal", round_number), prefix, _deck_tile)
        starter = (dealer + 1) % SEATS
        hands, stock = deal_blocks(tiles, [HAND_SIZE + (s == starter) for s in range(SEATS)])
        bonus: list[list[str]] = [[], []]
        # CAN-09: in turn order from the starter, bonus threes go to the team zone and are replaced
        # from the stock front, again while replacements are bonus threes.
        for i in range(SEATS):
            seat = (starter + i) % SEATS
            hand = hands[seat]
            while True:
                threes = [t for t in hand if m.is_bonus_three(t)]
                if not threes:
                    break
                for t in threes:
                    hand.remove(t)
                    bonus[team_of(seat)].append(t)
                hand.extend(stock[: len(threes)])
                del stock[: len(threes)]
        regular, stock_threes = split_stock(stock)
        state.update(
            round=round_number,
            dealer=dealer,
            starter=starter,
            turn=starter,
            phase="play",  # CAN-13: the starter's first turn has no DRAW
            first_turn=True,
            hands=hands,
            stock=regular,
            stock_threes=stock_threes,
            pile=[],
            melds=[{}, {}],
            bonus=bonus,
            opened=[False, False],
            thresholds=[threshold(t) for t in state["totals"]],
            joker_used=[False] * SEATS,
            extra_jokers=0,
            exhausted=False,
            round_over=None,
        )

    def next_round(self, state: State) -> State:
        self.check_next_round(state)
        new = clone(state)
        self._deal(new, state["round"] + 1, (state["dealer"] + 1) % SEATS)  # CAN-63
        return new

    # ---- queries -----------------------------------------------------------------------------

    def parse(self, text: str) -> Action:
        return parse(text)

    def format(self, action: Action) -> str:
        return format_action(action)

    def all_items(self, state: State) -> list[str]:
        tiles = list(state["stock"]) + [t for _, t in state["stock_threes"]] + list(state["pile"])
        for hand in state["hands"]:
            tiles.extend(hand)
        for team in range(2):
            tiles.extend(state["bonus"][team])
            for meld in state["melds"][team].values():
                tiles.extend(meld)
        return tiles

    def timeout_action(self, state: State) -> Action:
        return Timeout()

    def result(self, state: State) -> RoundResult | None:
        over = state["round_over"]
        if over is None:
            return None
        return RoundResult(
            round_scores=[over["scores"][team_of(s)] for s in range(SEATS)],
            totals=[state["totals"][team_of(s)] for s in range(SEATS)],
            winners=list(over["winners"]),
            match_over=state["match_over"],
            match_winners=list(state["match_winners"]),
            teams=[list(t) for t in TEAMS],
            details={
                "round": state["round"],
                "reason": over["reason"],
                "out": over["out"],
                "teams": clone(over["teams"]),
                "team_scores": list(over["scores"]),
                "team_totals": list(state["totals"]),
                "ledger": list(state["ledger"]),
                "drawn": over.get("drawn", False),
            },
        )

    # ---- actions -----------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        if self.current_seat(state) != seat:
            raise IllegalAction("E_NOT_YOUR_TURN", seat=seat)
        new = _clone_state(state)
        events: list[Event] = []
        match action:
            case Draw():
                self._draw(new, seat, events)
            case JokerButton():
                self._joker(new, seat, events)
            case TakePile():
                self._take(new, seat, action, events)
            case Open(melds=melds):
                self._open(new, seat, melds, events)
            case Meld(melds=melds):
                self._meld(new, seat, melds, events)
            case Add():
                self._add(new, seat, action, events)
            case Discard(tile=tile):
                self._discard(new, seat, tile, events)
            case Timeout():
                self._timeout(new, seat, events)
            case _:
                raise IllegalAction("E_PARSE", token=type(action).__name__, expected="Canasta action")
        return new, events

    # DRAW phase -------------------------------------------------------------------------------

    def _draw(self, state: State, seat: int, events: list[Event]) -> None:
        if state["phase"] != "draw":
            raise IllegalAction("E_PHASE", phase=state["phase"], action="draw")
        self._draw_tile(state, seat, events, reason="draw")

    def _draw_tile(self, state: State, seat: int, events: list[Event], reason: str) -> None:
        """One regular tile from the stock; bonus threes met on the way go to the team zone
        (CAN-14); the draw that empties the stock triggers its exhaustion (CAN-52)."""
        team = team_of(seat)
        revealed: list[str] = []
        while True:
            tile = pop_stock(state)
            if m.is_bonus_three(tile):
                state["bonus"][team].append(tile)
                revealed.append(tile)
                if stock_count(state) == 0:
                    events.append(Event("BonusThrees", {"seat": seat, "team": team, "tiles": revealed}))
                    events.append(Event("StockExhausted", {"seat": seat, "at_once": True}))
                    self._end_round(state, events, out_seat=None)
                    return
                continue
            break
        state["hands"][seat].append(tile)
        state["phase"] = "play"
        state["first_turn"] = False
        if revealed:
            events.append(Event("BonusThrees", {"seat": seat, "team": team, "tiles": revealed}))
        events.append(Event("TileDrawn", {"seat": seat, "stock": stock_count(state), "reason": reason}))
        events.append(Event("TilesReceived", {"tiles": [tile]}, seat=seat))
        if stock_count(state) == 0:
            state["exhausted"] = True
            events.append(Event("StockExhausted", {"seat": seat, "at_once": False}))

    def _joker(self, state: State, seat: int, events: list[Event]) -> None:
        # D-24 (1): a press on one's own turn outside DRAW is E_JOKER_BUTTON, not E_PHASE.
        if state["options"]["joker_button"] != "on":
            raise IllegalAction("E_JOKER_BUTTON", reason="off", why="off")
        if state["phase"] != "draw":
            raise IllegalAction("E_JOKER_BUTTON", reason="phase", why="phase")
        if state["joker_used"][seat]:
            raise IllegalAction("E_JOKER_BUTTON", reason="used", why="used")
        state["joker_used"][seat] = True
        state["extra_jokers"] += 1
        state["hands"][seat].append(m.JOKER)
        state["phase"] = "play"
        events.append(Event("JokerCreated", {"seat": seat}))

    def _take(self, state: State, seat: int, action: TakePile, events: list[Event]) -> None:
        if state["phase"] != "draw":
            raise IllegalAction("E_PHASE", phase=state["phase"], action="take")
        pile, hand, team = state["pile"], state["hands"][seat], team_of(seat)
        top = pile[-1] if pile else None
        if top is None or not m.is_natural(top):
            raise IllegalAction("E_PILE_BLOCKED", top=top)  # CAN-40(1,2), CAN-41
        number = m.num(top)
        in_hand = sum(1 for t in hand if m.is_natural(t) and m.num(t) == number)
        named = sum(1 for t in action.tiles if m.is_natural(t) and m.num(t) == number)
        if in_hand < 2 or named < 2:
            raise IllegalAction("E_NO_NATURAL_PAIR", top=top, held=in_hand, named=named, number=number)
        used = list(action.tiles) + [t for meld in action.melds for t in meld]
        self._check_in_hand(hand, used)
        existing = state["melds"][team].get(str(number))
        numbers = self._check_numbers(state, team, action.melds, taken=number)
        for t in action.tiles:
            if not (m.is_wild(t) or (m.is_natural(t) and m.num(t) == number)):
                raise IllegalAction("E_INVALID_MELD", meld=[top, *action.tiles], reason="canasta_wrong_number",
                                    index=_ref(team, number))
        take_meld = (existing or []) + [top, *action.tiles]
        problem = m.meld_problem(number, take_meld, new=existing is None)
        if problem:
            raise IllegalAction("E_INVALID_MELD", meld=take_meld, reason=problem, index=_ref(team, number))
        self._check_valid(team, numbers, action.melds)
        opening = not state["opened"][team]
        if opening:
            count = m.count_value([top, *used])  # CAN-43: the rest of the pile never counts
            if count < state["thresholds"][team]:
                raise IllegalAction("E_THRESHOLD", value=count, required=state["thresholds"][team])
        after = len(hand) - len(used) + len(pile) - 1
        lengths = {**{n: len(t) for n, t in state["melds"][team].items()}, str(number): len(take_meld)}
        lengths.update({str(n): len(meld) for n, meld in zip(numbers, action.melds, strict=True)})
        self._check_floor(after, lengths)
        _remove(hand, used)
        rest = pile[:-1]
        state["melds"][team][str(number)] = take_meld
        for n, meld in zip(numbers, action.melds, strict=True):
            state["melds"][team][str(n)] = list(meld)
        hand.extend(rest)
        state["pile"] = []
        state["opened"][team] = True
        state["phase"] = "play"
        state["first_turn"] = False
        events.append(
            Event(
                "PileTaken",
                {
                    "seat": seat,
                    "team": team,
                    "number": number,
                    "tiles": [top, *action.tiles],
                    "melds": [list(meld) for meld in action.melds],
                    "taken": len(rest),
                    "opened_now": opening,
                },
            )
        )
        events.append(Event("TilesReceived", {"tiles": m.sorted_tiles(rest)}, seat=seat))

    # PLAY phase -------------------------------------------------------------------------------

    def _require_play(self, state: State, what: str) -> None:
        if state["phase"] != "play":
            raise IllegalAction("E_PHASE", phase=state["phase"], action=what)

    def _check_in_hand(self, hand: list[str], tiles: list[str]) -> None:
        missing = m.multiset_missing(hand, tiles)
        if missing:
            raise not_held("E_NOT_IN_HAND", hand, tiles, missing)

    def _check_numbers(
        self, state: State, team: int, melds: tuple[tuple[str, ...], ...], taken: int | None = None
    ) -> list[int | None]:
        """CAN-24: one meld per number per team, the batch included (D-24 step 6)."""
        seen: set[int] = set() if taken is None else {taken}
        numbers = []
        for meld in melds:
            n = m.meld_number(meld)
            if n is not None and (n in seen or str(n) in state["melds"][team]):
                raise IllegalAction("E_DUPLICATE_NUMBER", number=n, team=TEAM_LETTERS[team])
            if n is not None:
                seen.add(n)
            numbers.append(n)
        return numbers

    def _check_valid(self, team: int, numbers: list[int | None], melds: tuple[tuple[str, ...], ...]) -> None:
        for i, (n, meld) in enumerate(zip(numbers, melds, strict=True), start=1):
            problem = "canasta_threes" if n is None and any(m.num(t) == 3 for t in meld) else None
            if n is None:
                problem = problem or ("too_short" if len(meld) < 3 else "canasta_wrong_number")
            else:
                problem = m.meld_problem(n, meld)
            if problem:
                raise IllegalAction("E_INVALID_MELD", meld=list(meld), reason=problem,
                                    index=str(i) if n is None else _ref(team, n))

    def _check_floor(self, after: int, lengths: dict[str, int]) -> None:
        """CAN-17 / D-13: ≥1 tile, and ≥2 unless the team then has a canasta."""
        canasta = any(n >= m.CANASTA_SIZE for n in lengths.values())
        if after < 1 or (after < 2 and not canasta):
            raise IllegalAction("E_HAND_FLOOR", left=after, canasta=canasta)

    def _lay(self, state: State, seat: int, melds: tuple[tuple[str, ...], ...], opening: bool,
             events: list[Event]) -> None:
        team, hand = team_of(seat), state["hands"][seat]
        used = [t for meld in melds for t in meld]
        self._check_in_hand(hand, used)
        numbers = self._check_numbers(state, team, melds)
        self._check_valid(team, numbers, melds)
        if opening:
            count = m.count_value(used)
            if count < state["thresholds"][team]:
                raise IllegalAction("E_THRESHOLD", value=count, required=state["thresholds"][team])
        lengths = {**{n: len(t) for n, t in state["melds"][team].items()}}
        lengths.update({str(n): len(meld) for n, meld in zip(numbers, melds, strict=True)})
        self._check_floor(len(hand) - len(used), lengths)
        _remove(hand, used)
        for n, meld in zip(numbers, melds, strict=True):
            state["melds"][team][str(n)] = list(meld)
        state["opened"][team] = True
        events.append(
            Event(
                "MeldsLaid",
                {
                    "seat": seat,
                    "team": team,
                    "melds": [list(meld) for meld in melds],
                    "value": m.count_value(used),
                    "opened_now": opening,
                },
            )
        )

    def _open(self, state: State, seat: int, melds: tuple[tuple[str, ...], ...], events: list[Event]) -> None:
        self._require_play(state, "open")
        if state["opened"][team_of(seat)]:
            raise IllegalAction("E_ALREADY_OPENED")
        self._lay(state, seat, melds, opening=True, events=events)

    def _meld(self, state: State, seat: int, melds: tuple[tuple[str, ...], ...], events: list[Event]) -> None:
        self._require_play(state, "meld")
        if not state["opened"][team_of(seat)]:
            raise IllegalAction("E_NOT_OPENED", threshold=state["thresholds"][team_of(seat)])
        self._lay(state, seat, melds, opening=False, events=events)

    def _add(self, state: State, seat: int, action: Add, events: list[Event]) -> None:
        self._require_play(state, "add")
        team, hand = team_of(seat), state["hands"][seat]
        if not state["opened"][team]:
            raise IllegalAction("E_NOT_OPENED", threshold=state["thresholds"][team])
        self._check_in_hand(hand, list(action.tiles))
        if action.team is not None and TEAM_LETTERS.index(action.team) != team:
            raise IllegalAction("E_NOT_OWN_MELD", number=action.number, team=action.team)
        key = str(action.number)
        if key not in state["melds"][team]:
            raise IllegalAction("E_NO_SUCH_MELD", number=action.number)
        grown = state["melds"][team][key] + list(action.tiles)
        problem = m.meld_problem(action.number, grown, new=False)
        if problem:
            raise IllegalAction("E_INVALID_MELD", meld=grown, reason=problem, index=_ref(team, action.number))
        lengths = {n: len(t) for n, t in state["melds"][team].items()}
        lengths[key] = len(grown)
        self._check_floor(len(hand) - len(action.tiles), lengths)
        _remove(hand, action.tiles)
        state["melds"][team][key] = grown
        events.append(
            Event("TilesAdded", {"seat": seat, "team": team, "number": action.number, "tiles": list(action.tiles),
                                 "size": len(grown), "canasta": m.canasta_kind(action.number, grown)})
        )

    def _discard(self, state: State, seat: int, tile: str, events: list[Event]) -> None:
        self._require_play(state, "discard")
        hand, team = state["hands"][seat], team_of(seat)
        self._check_in_hand(hand, [tile])
        if len(hand) == 1 and not self._has_canasta(state, team):
            raise IllegalAction("E_NO_CANASTA", tile=tile)  # CAN-50
        hand.remove(tile)
        state["pile"].append(tile)
        out = not hand
        events.append(Event("Discarded", {"seat": seat, "tile": tile, "out": out}))
        if out:
            self._end_round(state, events, out_seat=seat)
        elif state["exhausted"]:
            self._end_round(state, events, out_seat=None)  # CAN-52: the drawer's turn was the last
        else:
            state["turn"] = (seat + 1) % SEATS
            state["phase"] = "draw"
            state["first_turn"] = False
            events.append(Event("TurnStarted", {"seat": state["turn"]}))

    def _timeout(self, state: State, seat: int, events: list[Event]) -> None:
        """CAN-54/55: draw if not done (never the pile or the button), keep what was done, no melds,
        then the priority discard; a legal last-tile discard is an ordinary going out."""
        events.append(Event("AutoPlayed", {"seat": seat, "phase": state["phase"]}))
        if state["phase"] == "draw":
            self._draw_tile(state, seat, events, reason="auto")
            if state["round_over"] is not None:
                return
        # The hand floor (CAN-17) guarantees this discard is legal: ≥2 tiles, or a team canasta.
        self._discard(state, seat, auto_discard(state["hands"][seat]), events)

    # ---- round and match end -----------------------------------------------------------------

    @staticmethod
    def _has_canasta(state: State, team: int) -> bool:
        return any(len(t) >= m.CANASTA_SIZE for t in state["melds"][team].values())

    def _end_round(self, state: State, events: list[Event], out_seat: int | None) -> None:
        teams = score_round(state, out_seat)
        scores = [teams[0]["score"], teams[1]["score"]]
        state["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
        state["history"].append(scores)
        lead = leading_team(scores)
        winners = [] if lead is None else list(TEAMS[lead])  # CAN-64 / D-22
        decision = match_decision(state["options"], state["round"], state["totals"])
        state["turn"] = None
        state["round_over"] = {
            "reason": "out" if out_seat is not None else "stock",
            "out": out_seat,
            "scores": scores,
            "winners": winners,
            "teams": teams,
            "hands": [m.sorted_tiles(h) for h in state["hands"]],
            "drawn": decision == "drawn",
        }
        events.append(
            Event(
                "RoundScored",
                {
                    "round": state["round"],
                    "reason": state["round_over"]["reason"],
                    "out": out_seat,
                    "scores": scores,
                    "teams": clone(teams),
                    "winners": winners,
                    "hands": clone(state["round_over"]["hands"]),
                    "totals": list(state["totals"]),
                },
            )
        )
        if decision in ("won", "drawn"):
            state["match_over"] = True
            per_round = state["options"]["ledger_per_round"] * state["round"]
            if decision == "won":
                best = leading_team(state["totals"])
                assert best is not None
                state["match_winners"] = list(TEAMS[best])
                state["ledger"] = [per_round if team_of(s) == best else -per_round for s in range(SEATS)]
            else:
                state["match_winners"] = list(range(SEATS))  # a drawn match: both teams share it
                state["ledger"] = [0] * SEATS
            events.append(
                Event("MatchEnded", {"winners": list(state["match_winners"]), "totals": list(state["totals"]),
                                     "drawn": decision == "drawn", "ledger": list(state["ledger"])})
            )
        elif decision == "tie_break":
            events.append(Event("TieBreakNeeded", {"totals": list(state["totals"])}))

    # ---- views -------------------------------------------------------------------------------

    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state)

    def seat_view(self, state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        return views.seat_view(state, seat, public)

    def moves(self, view: dict[str, Any]) -> list[MoveTemplate]:
        return legal_moves(view)

    def help_text(self) -> list[tuple[str, str]]:
        return [
            ("draw", "help.canasta.draw"),
            ("take with r13 k13 | r1 b1 y1", "help.canasta.take"),
            ("open r8 b8 k8 | r10 b10 j", "help.canasta.open"),
            ("meld r5 b5 k5 | r2 b2 j", "help.canasta.meld"),
            ("add 8 y8 r2", "help.canasta.add"),
            ("discard k3", "help.canasta.discard"),
            ("joker", "help.canasta.joker"),
        ]

    def ai_action(self, state: State, seat: int, rng: Random, level: Level = DEFAULT_LEVEL) -> Action:
        return policy_for(POLICIES, level)(views.build_view(state, seat, hints=False), rng)

    def stand_in_action(self, state: State, seat: int, rng: Random) -> Action:
        return self.timeout_action(state)  # CAN-54/55: an away player's turns are auto-played


def auto_discard(hand: list[str]) -> str:
    """CAN-55's discard: b3, then k3; then the cheapest natural (ties: lowest number, then colour);
    then a two before a joker."""
    for t in m.BLOCK_THREES:
        if t in hand:
            return t
    naturals = [t for t in hand if m.is_natural(t)]
    if naturals:
        return min(naturals, key=lambda t: (m.value(t), m.num(t), m.sort_key(t)))
    twos = [t for t in hand if m.is_two(t)]
    if twos:
        return min(twos, key=m.sort_key)
    return hand[0]


def _ref(team: int, number: int) -> str:
    """How a team meld is named in messages (CAN-02): `A:8s`."""
    return f"{TEAM_LETTERS[team]}:{number}s"


def _deck_tile(token: str) -> str:
    try:
        return parse_tile(token)
    except IllegalAction as err:
        raise SetupError(f"deck: {token!r} is not a tile") from err


ENGINE = CanastaEngine()
