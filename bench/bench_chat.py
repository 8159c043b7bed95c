"""What a chat sees of a match: every game on Telegram and Discord, against the fake servers.

Two people play a 3-seat match (Canasta: 4, two teams) with AI in the other seats; each human
move is what the game's AI would choose, pressed as a hand button when the hand shows one with
exactly that label, typed otherwise (a DM on Telegram, `/rummy play` on Discord). Matches are
short (one game, one round or a low target; see MATCH). Two paces: "human", the harness clock
advanced HUMAN_GAP_S before every human move, and "full", no pause. AI turns run as the service
runs them (inside the human turn that hands them the move).

Per game, platform and pace:
* calls per human turn (median, max): every Bot API / REST call from the move until the bot is idle;
* group per turn: the calls that reached the group (answered 200), new messages and edits apart;
* busiest 60 s: group messages (new + edits) that reached the group in any 60 s of the fake's
  clock: the harness clock (moved only at human pace) plus, on Telegram, the seconds the bot waited
  out 429s (the Telegram fake enforces 20 in 60 s; `429s` counts its refusals, `waited` the seconds
  the bot slept on them: how far the group fell behind the game);
* left: bot messages still in the group at match end (sent minus deleted);
* unrelated p50/p95: at full speed, on every 2nd human turn an unrelated user (Carol) asks for help
  while the move is handled (Telegram: in her DM; Discord: /rummy help, the fake has one channel):
  alternately with the group's next table edit answered 429 (retry after 1 s, waited for real; on
  Telegram the flood window is let empty first, a minute of fake time) and without (base). Delay:
  from her request until the bot's answer reaches the fake;
* up kB/turn: picture bytes uploaded per human turn (Telegram; `--chat-looks text,pictures` runs
  each Telegram match with the chat's `/look` as text and as pictures, in one run);
* broke: what the fakes refused by the platforms' rules (Telegram: text, markup, sizes; Discord:
  sizes, late answers, expired tokens), reported rather than failing the run; should be 0.

The adapters are driven only through the test harnesses and the fakes' recorded calls, so the
bench measures whatever adapter is in place: the figures before and after a rewrite.

`python -m bench.bench_chat [--chat-games rummikub,canasta] [--chat-platforms telegram,discord]
[--chat-paces human,full] [--chat-looks text,pictures] [--chat-seed S] [--chat-samples N] [--chat-quick]` (prefixed, since
`python -m bench` hands every argument to every bench and `--games` means a count elsewhere)
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from bench.bench_rummikub import machine, percentile
from bench.chat_discord import dc_match
from bench.chat_match import HUMAN_GAP_S, MAX_TURNS, Match, Turn, busiest_60s, sample_kind
from bot.core.clock import FakeClock
from rules import engine_names, get_engine
from tests.telegram import conftest as tg
from tests.telegram.fake_bot_api import FakeTelegramBotAPI

# Short matches that still end as a match does (result, standings): `/new` options per game.
MATCH = {"rummikub": "match_games=1", "rummy101": "match_rounds=1", "rummy500": "target_score=100",
         "canasta": "match_length=1_round", "three_thirteen": "rounds=3"}
QUICK = {**MATCH, "three_thirteen": "rounds=1"}


# ---- Telegram -------------------------------------------------------------------------------------

TG_NEW = re.compile(r"^(send|copy|forward)", re.I)


def tg_turn(calls: Sequence[Any], group: int) -> Turn:
    mine = [c for c in calls if c.chat_id == group and c.status == 200]
    return Turn(len(calls), sum(1 for c in mine if TG_NEW.match(c.method)),
                sum(1 for c in mine if c.method.lower().startswith("editmessage")),
                sum(1 for c in mine if c.method.lower() == "deletemessage"))


async def tg_move(h: tg.Harness, user: dict, move: str) -> tuple[dict, bool]:
    """Push the move (a matching hand button, else the typed text); the update, and whether pressed."""
    try:
        hand = await h.hand_message(user)
    except KeyError:
        hand = None
    for b in h.fake.buttons(hand) if hand else []:
        if b["text"] == move and "callback_data" in b:
            return h.fake.push_callback(b["callback_data"], message=hand, user=user), True
    return h.fake.push_text(move, user=user), False


async def tg_unrelated(h: tg.Harness, update: dict, under_429: bool) -> float | None:
    """Carol's DM help sent while the move is handled (and, under_429, the group answers 429 to its
    next table edit); her delay in s, None when the 429 did not come."""
    mark = len(h.fake.calls)
    await asyncio.sleep(0.01)  # the move is being handled when her DM comes
    asked = time.perf_counter()
    dm = h.fake.push_text("/help", user=h.carol)
    reply = await h.fake.wait_for_call("sendMessage", lambda c: c.chat_id == h.carol["id"], timeout=10, after=mark)
    await h.settle(dm)
    await h.settle(update)
    hit = any(c.status == 429 and c.chat_id == tg.GROUP_ID for c in h.fake.calls[mark:])
    return reply.t - asked if hit or not under_429 else None


async def tg_match(game: str, pace: str, seed: int, options: str, samples: int, look: str = "text") -> Match:
    fake = await FakeTelegramBotAPI(tg.TOKEN).start()
    out = Match()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        h = tg.Harness(fake, str(Path(tmp) / "bench.db"), FakeClock())
        h.seed = seed
        h.look = look
        await h.start()
        try:
            engine = get_engine(game)
            for u in (h.alice, h.bob, h.carol):
                await h.dm("/start", u)
            await h.say(f"/new {game} {options}", h.alice, h.group)
            await h.press_verb(await h.table_message(), "join", h.bob)
            for _ in range(max(engine.min_seats, 3) - 2):
                await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
            await h.press_verb(await h.table_message(), "start", h.alice)
            first, sampled, uploaded = len(fake.calls), 0.0, fake.uploaded
            while (rec := await h.table()).status == "playing" and len(out.turns) < MAX_TURNS:
                seat = engine.current_seat(rec.state)
                user = h.alice if rec.seats[seat].user_id == str(h.alice["id"]) else h.bob
                move = await h.ai_move(user)
                if pace == "human":
                    h.clock.advance(HUMAN_GAP_S)
                sample = sample_kind(len(out.turns), out, samples) if pace == "full" else None
                if sample == "429":
                    # Only the injected 429 is to be waited for on the wall clock, so the group's
                    # flood window is let empty first (a minute of the fake's time passes), else its
                    # own 429 would have the bot sleep up to 60 s for real.
                    h.slept += 60.0
                    sampled += 60.0
                    h.real_sleep = True
                    for method in ("editMessageText", "editMessageCaption", "editMessageMedia"):
                        fake.fail_next(method, 429, "Too Many Requests: retry after 1", {"retry_after": 1},
                                       chat_id=tg.GROUP_ID)
                n = len(fake.calls)
                update, pressed = await tg_move(h, user, move)
                if sample:
                    before = h.slept
                    delay = await tg_unrelated(h, update, sample == "429")
                    sampled += h.slept - before
                    h.real_sleep = False
                    fake.clear_failures()
                    if delay is not None:
                        (out.unrelated if sample == "429" else out.baseline).append(delay)
                else:
                    await h.settle(update)
                if (await h.table()).log_seq == rec.log_seq:
                    raise RuntimeError(f"telegram {game}: {move!r} was not played")
                out.pressed += pressed
                mine = [c for c in fake.calls[n:] if c.chat_id != h.carol["id"]]
                out.turns.append(tg_turn(mine, tg.GROUP_ID))
            await h.idle()
            out.finished = (await h.table()).status == "finished"
            group = [c for c in fake.calls[first:] if c.chat_id == tg.GROUP_ID]
            reached = [c for c in group if c.status == 200 and c.method.lower() != "deletemessage"]
            out.group_at = [c.at for c in reached]
            out.waited = h.slept - sampled
            out.throttled = len(fake.throttled)  # the flood rule's 429s, not the injected ones
            out.left = len(fake.chat_messages(tg.GROUP_ID))
            out.uploaded = fake.uploaded - uploaded
        finally:
            out.broke = len(fake.rejected)
            fake.rejected.clear()  # reported instead of failing the harness's stop
            await h.stop()
            await fake.stop()
    out.seconds = time.perf_counter() - started
    return out


# ---- report ---------------------------------------------------------------------------------------

def _ms(values: Sequence[float]) -> str:
    if not values:
        return "    -     -"
    return f"{percentile(values, 0.5) * 1000:5.0f} {percentile(values, 0.95) * 1000:5.0f}"


def _opt(value: float | None, width: int) -> str:
    return f"{value:{width}.0f}" if value is not None else "-".rjust(width)


def _row(platform: str, game: str, pace: str, m: Match) -> str:
    """`platform` as run: "tg-text" / "tg-pics" (the chat's look) or "discord"."""
    calls = [t.calls for t in m.turns]
    new, edits = [t.new for t in m.turns], [t.edits for t in m.turns]
    return (f"   {platform:8s} {game:14s} {pace:5s} {len(m.turns):5d} {m.pressed:5d} "
            f"{statistics.median(calls):4.1f} {max(calls):3d}  "
            f"{statistics.median(new):3.1f} {statistics.mean(new):4.2f} {max(new):2d}  "
            f"{statistics.median(edits):3.1f} {statistics.mean(edits):4.2f} {max(edits):2d} "
            f"{sum(t.deletes for t in m.turns):4d} {busiest_60s(m.group_at):6d} {_opt(m.throttled, 4)} "
            f"{_opt(m.waited, 6)} {m.left:4d}  {_ms(m.unrelated)}  {_ms(m.baseline)} {m.broke:5d} "
            f"{_opt(m.uploaded / 1000 / len(m.turns) if m.uploaded is not None else None, 6)} "
            f"{'' if m.finished else 'unfinished '}{m.seconds:5.1f}s")


HEADER = """\
                                          calls/turn new/turn     edit/turn  group                         unrelated chat (ms)
   platform game           pace  turns press  med max  med mean max med mean max  del 60s-max 429s waited left  429 p50 p95  base p50 p95 broke up kB/turn"""


async def _run(games: list[str], platforms: list[str], paces: list[str], seed: int, samples: int,
               options: dict[str, str], looks: Sequence[str] = ("text",)) -> None:
    logging.getLogger("telegram.ext.AIORateLimiter").setLevel(logging.CRITICAL)  # each 429 logs a traceback
    runners: dict[str, Callable[..., Awaitable[Match]]] = {"telegram": tg_match, "discord": dc_match}
    started = time.perf_counter()
    print("== bench_chat: a match of every game as the chat sees it (fake Bot API / fake Discord on 127.0.0.1)")
    print(f"   machine: {machine()}")
    print(f"   2 humans + AI (3 seats, Canasta 4), seed {seed}; human pace = {HUMAN_GAP_S:.0f} s between human moves")
    print(HEADER)
    runs = [(p, look) for p in platforms for look in (looks if p == "telegram" else ("",))]
    for platform, look in runs:
        for game in games:
            for pace in paces:
                extra = {"look": look} if look else {}
                m = await runners[platform](game, pace, seed, options[game], samples, **extra)
                label = f"tg-{look[:4]}" if look else platform
                print(_row(label, game, pace, m), flush=True)
    print("   group: the Telegram group / the Discord channel; new, edit: per human turn, what reached it (200);")
    print("   60s-max: group messages + edits that reached it in any 60 s of the fake's clock (the harness clock,")
    print(f"   +{HUMAN_GAP_S:.0f} s a human move at human pace, still at full speed; on Telegram plus the seconds the bot")
    print("   waited out the fake's flood 429s: waited); left: bot messages in the group at match end;")
    print("   unrelated chat: Carol's help answered while the group's table edit waits out a 429 of 1 s, and")
    print(f"   without it (base); broke: refused by the platform rules. Done in {time.perf_counter() - started:.1f} s")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_chat")
    parser.add_argument("--chat-games", default=",".join(g for g in engine_names() if g in MATCH))
    parser.add_argument("--chat-platforms", default="telegram,discord")
    parser.add_argument("--chat-paces", default="human,full")
    parser.add_argument("--chat-looks", default="text,pictures", help="Telegram chats' /look, each in one run")
    parser.add_argument("--chat-seed", type=int, default=1)
    parser.add_argument("--chat-samples", type=int, default=4, help="RetryAfter samples per full-speed match")
    parser.add_argument("--chat-quick", action="store_true", help="shorter Three-Thirteen, 2 samples")
    args, _ = parser.parse_known_args(argv)
    samples = min(args.chat_samples, 2) if args.chat_quick else args.chat_samples
    asyncio.run(_run(args.chat_games.split(","), args.chat_platforms.split(","), args.chat_paces.split(","),
                     args.chat_seed, samples, QUICK if args.chat_quick else MATCH, args.chat_looks.split(",")))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
