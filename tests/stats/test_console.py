"""The terminal adapter answers the same standings commands."""

from __future__ import annotations

from bot.console.app import CHAT_ID, PLATFORM, YOU, ConsoleTable
from bot.core.service import TableService
from tests.stats.conftest import GO_OUT, LOSING, WINNING


async def test_console_standings_commands(service: TableService) -> None:
    out: list[str] = []
    lines = iter(["leaderboard", "/stats", "history 3", "leaderboard chess", "quit"])

    async def read() -> str | None:
        return next(lines, None)

    console = ConsoleTable(service, read, out.append)
    rec = await service.open_table("rummikub", PLATFORM, CHAT_ID, YOU, deck=WINNING + LOSING,
                                   options={"first_player": 1})
    await service.add_ai(rec.id, YOU)
    await service.start(rec.id, YOU)
    await service.act(rec.id, YOU, GO_OUT)
    for command in ("leaderboard", "stats", "history", "teams", "leaderboard chess", "team name X"):
        await console.stats_command(command)
    text = "\n".join(out)
    assert "🏆 Rummikub — this chat, all time\n1. You — rating" in text and "AI" not in text.split("🕘")[0]
    assert "📊 You (this chat)" in text and "🕘 Last 1 match" in text and "You won" in text
    assert "I do not know “chess”" in text and "No team has finished" in text
    assert "not finished a team match" in text
    new = await console.stats_command("rematch")
    assert new is not None and new.status == "playing" and [s.kind for s in new.seats] == ["human", "ai"]
    out.clear()
    assert await console.run(new) == 0  # typed during play: answered, the game goes on
    text = "\n".join(out)
    assert "🏆 Rummikub" in text and "📊 You" in text and "🕘 Last 1 match" in text and "I do not know" in text
