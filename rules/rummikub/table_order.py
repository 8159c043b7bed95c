"""The table's order across turns, so "meld 3" stays meld 3 under a player's finger and in the chat.

A `play` submits the whole layout in whatever order it was written (RK-20); the table it leaves is
put in this order before it is stored:

- a meld left as it was, or kept whole with rack tiles added, keeps its place;
- a meld of rack tiles only goes at the end;
- each table meld that was broken up gives its place, in table order, to the meld rebuilt from it
  that holds most of its tiles (of those holding as many, the first written), one place per meld;
- a rebuilt meld that got no place (the smaller half of a split) goes at the
  end too; the melds at the end keep the order the layout wrote them in;
- when a rearrangement leaves fewer melds than it broke up, the places left over close up: the
  melds after them move up by the places freed and keep their order.

Pure: no I/O, the same input always gives the same order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.rummikub.changes import StoredMeld, match_melds


def stable_table(before: Sequence[StoredMeld], after: Sequence[StoredMeld],
                 added: Sequence[str]) -> list[StoredMeld]:
    """`after` (a valid play's layout over the table `before`, `added` its rack tiles) in the table's order."""
    match, rack = match_melds(before, after, added)
    place: dict[int, tuple[int, int]] = {j: (0, i) for j, i in match.items()}
    rebuilt = []
    for j, meld in enumerate(after):
        if j in place:
            continue
        tiles = Counter(meld["tiles"])
        if not tiles - rack:  # rack tiles only (as table_changes counts them `new`)
            rack -= tiles
            place[j] = (1, j)
        else:
            rebuilt.append((j, tiles))
    for i in (i for i in range(len(before)) if i not in match.values()):
        old = Counter(before[i]["tiles"])
        shared = [(sum((tiles & old).values()), -j) for j, tiles in rebuilt if j not in place]
        best = max(shared, default=(0, 0))
        if best[0]:
            place[-best[1]] = (0, i)
    for j, _ in rebuilt:
        place.setdefault(j, (1, j))
    return [after[j] for j in sorted(range(len(after)), key=lambda j: place[j])]
