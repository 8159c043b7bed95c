"""What one human move costs in Bot API calls today (issue 27, item 6 asks for 3 at most): a
two-player game, each move a turn that passes to the other player. Counted by the fake, per method
and chat, so a change of the policy shows here."""

from __future__ import annotations

from collections import Counter

from tests.telegram.conftest import GROUP_ID, Harness

MOVES = 6


async def cost_per_move(h: Harness) -> Counter[tuple[str, str]]:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    counts: Counter[tuple[str, str]] = Counter()
    for _ in range(MOVES):
        rec = await h.table()
        mover, other = (h.alice, h.bob) if rec.state["turn"] == 0 else (h.bob, h.alice)
        n = len(h.fake.calls)
        update = h.fake.push_text("draw", user=mover)  # the DM text is the move: no press to answer
        await h.settle(update)
        for c in h.fake.calls[n:]:
            where = "group" if c.chat_id == GROUP_ID else "mover" if c.chat_id == mover["id"] else \
                "next" if c.chat_id == other["id"] else str(c.chat_id)
            counts[(c.method, where)] += 1
    return counts


async def test_a_move_costs_five_calls_today(h: Harness) -> None:
    counts = await cost_per_move(h)
    per_move = {k: v / MOVES for k, v in sorted(counts.items())}
    print("calls per human move:", per_move, "total", sum(counts.values()) / MOVES)
    assert per_move == {("deleteMessage", "mover"): 1.0, ("editMessageText", "group"): 1.0,
                        ("editMessageText", "mover"): 1.0, ("editMessageText", "next"): 1.0,
                        ("sendMessage", "next"): 1.0}
