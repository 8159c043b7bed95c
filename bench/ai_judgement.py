"""Counts of the judgement errors issue 28 found, per side, over bench/bench_ai_matches.py's matches.

Figures only. Each game's counter looks at every applied action (the state before and after, the
full state: the bench sees every hand) and at every round end:
- Canasta: wilds added to a clean canasta (500 -> 300, CAN-31), block threes left in hands at round
  ends (100 each, CAN-46), rounds the side went out;
- Rummy 101: rounds opened with pairs and their round points, rounds opened with series and theirs,
  jokers laid in pairs, joker finishes (x2, R101-52);
- Rummy 500: market takes, the points they laid and the points they brought into the hand (taken
  cards that stayed in it), points held in hand at round ends (R500-62).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable

from rules.canasta import melds as cm
from rules.canasta.actions import Add as CanastaAdd
from rules.core.engine import Action, State
from rules.rummy101.actions import Meld as R101Meld
from rules.rummy101.actions import Open as R101Open
from rules.rummy101.actions import Take as R101Take
from rules.rummy101.search import physical
from rules.rummy500.actions import TakeMarket
from rules.rummy500.melds import hand_value, laid_points

Counts = dict[str, dict[str, int]]  # counter -> side ("ai", "greedy") -> count
Side = Callable[[int], str]


class Judgement:
    """The counters of one game over one head-to-head run."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.counts: Counts = defaultdict(lambda: {"ai": 0, "greedy": 0})

    def _add(self, name: str, side: str, n: int = 1) -> None:
        self.counts[name][side] += n

    def action(self, before: State, seat: int, action: Action, after: State, side: str) -> None:
        if self.game == "canasta" and isinstance(action, CanastaAdd):
            team = seat % 2
            tiles = before["melds"][team].get(str(action.number), before["melds"][team].get(action.number))
            if tiles and cm.canasta_kind(action.number, tiles) in ("clean", "clean_twos"):
                self._add("wilds put on a clean canasta", side, sum(1 for t in action.tiles if cm.is_wild(t)))
        elif self.game == "rummy101":
            use = action.use if isinstance(action, R101Take) else action
            if isinstance(use, (R101Open, R101Meld)):
                pairs = [physical(list(spec.tiles)) for spec in use.melds if len(spec.tiles) == 2]
                self._add("jokers laid in pairs", side, sum(pair.count("j") for pair in pairs))
        elif self.game == "rummy500" and isinstance(action, TakeMarket):
            jk = before["options"]["joker_hand_penalty"]
            brought = Counter(after["hands"][seat]) - Counter(before["hands"][seat])
            n = before["seats"]
            self._add("market takes", side)
            self._add("points laid by market takes", side,
                      laid_points(after["table"], n)[seat] - laid_points(before["table"], n)[seat])
            self._add("points brought into hand by market takes", side, hand_value(list(brought.elements()), jk))

    def round_end(self, state: State, side_of: Side) -> None:
        over = state["round_over"]
        seats = range(len(state["hands"]))
        if self.game == "canasta":
            for seat in seats:
                self._add("block threes in hand at round end", side_of(seat),
                          sum(1 for t in over["hands"][seat] if cm.is_block_three(t)))
            self._add("rounds", "ai")
            self._add("rounds", "greedy")
            if over["out"] is not None:
                self._add("rounds gone out", side_of(over["out"]))
        elif self.game == "rummy101":
            self._add("rounds", "ai")
            self._add("rounds", "greedy")
            for seat in seats:
                status = over["statuses"][seat]
                if status in ("pairs", "series"):
                    self._add(f"rounds opened with {status}", side_of(seat))
                    self._add(f"round points of rounds opened with {status}", side_of(seat), over["scores"][seat])
            for seat in over["winners"]:
                if over["joker_finish"]:
                    self._add("joker finishes", side_of(seat))
        elif self.game == "rummy500":
            self._add("rounds", "ai")
            self._add("rounds", "greedy")
            for seat in seats:
                self._add("points in hand at round end", side_of(seat), over["hand_values"][seat])

    def lines(self) -> Iterable[str]:
        for name, by_side in self.counts.items():
            yield f"{name}: AI {by_side['ai']} vs greedy {by_side['greedy']}"

