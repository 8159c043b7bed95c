"""The Discord table embed's lines (issue 26): whose turn with the live deadline first, then the
newest event lines newest first, left off whole from the end, so the newest event and the deadline
are never cut, over the states of seeded 4-player Rummikub matches."""

from __future__ import annotations

import pytest

from bot.core.i18n import t
from bot.discord.safe import plain
from bot.discord.views import EXTRA_MAX, table_embed
from tests.telegram.test_caption import panels


@pytest.mark.parametrize("picture", [True, False])
def test_the_turn_and_the_newest_events_lead_the_table_embed(picture: bool) -> None:
    left_off = states = 0
    for seed in range(2):
        for panel, last_round in panels(seed, "en"):
            states += 1
            name = panel.table.seats[panel.turn].name if panel.turn is not None else None
            embed = table_embed(panel, name, last_round, picture)
            description = embed.description or ""
            extra = description if picture else description.rsplit("```", 1)[-1].strip()
            assert len(extra) <= EXTRA_MAX
            if name is not None:
                first = extra.split("\n", 1)[0]
                assert first.startswith(t("dc.turn_line", "en", name=name)) and "<t:1800000000:R>" in first, \
                    "whose turn and the deadline first"
            newest = [plain(line) for line in reversed(panel.lines)]
            if newest:
                body = extra.split("\n", 1)[1] if name is not None else extra
                assert body.startswith(newest[0]), "the newest event next, whole"
                left_off += not body.endswith(newest[-1])
    assert states > 100 and left_off, "some states had more lines than room: the check above saw a cut"
