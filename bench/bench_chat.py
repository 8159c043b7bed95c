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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.bench_rummikub import machine, percentile
from bot.core.clock import FakeClock
from bot.core.codec import CodecError, decode
from bot.discord.app import point_at
from rules import engine_names, get_engine
from tests.discord import conftest as dc
from tests.discord.fake_discord import FakeDiscord
from tests.discord.fake_wire import EPHEMERAL
from tests.telegram import conftest as tg
from tests.telegram.fake_bot_api import FakeTelegramBotAPI

HUMAN_GAP_S = 8.0
MAX_TURNS = 1500
# Short matches that still end as a match does (result, standings): `/new` options per game.
MATCH = {"rummikub": "match_games=1", "rummy101": "match_rounds=1", "rummy500": "target_score=100",
         "canasta": "match_length=1_round", "three_thirteen": "rounds=3"}
QUICK = {**MATCH, "three_thirteen": "rounds=1"}


@dataclass
class Turn:
    calls: int
    new: int  # new messages that reached the group
    edits: int  # edits of group messages that reached it
    deletes: int


@dataclass
class Match:
    turns: list[Turn] = field(default_factory=list)
    group_at: list[float] = field(default_factory=list)  # when each group message/edit arrived
    throttled: int | None = None  # 429s of the fake's flood rule (the Discord fake has none)
    waited: float | None = None  # seconds the bot waited out 429s (Telegram: the harness's injected sleep)
    left: int = 0
    unrelated: list[float] = field(default_factory=list)  # seconds, beside a group under RetryAfter
    baseline: list[float] = field(default_factory=list)  # seconds, the same without the 429
    pressed: int = 0
    broke: int = 0
    uploaded: int | None = None  # picture bytes uploaded (Telegram)
    finished: bool = False
    seconds: float = 0.0


def busiest_60s(times: Sequence[float]) -> int:
    ordered = sorted(times)
    best = lo = 0
    for hi, t in enumerate(ordered):
        while t - ordered[lo] >= 60.0:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def _sample(turn: int, m: Match, samples: int) -> str | None:
    """Every 2nd human turn: a sample beside a group under RetryAfter ("429") or,
    alternately, beside a group that is not ("base"), until each has `samples`."""
    if turn % 2 != 1:
        return None
    if len(m.unrelated) < samples and len(m.unrelated) <= len(m.baseline):
        return "429"
    return "base" if len(m.baseline) < samples else None


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
                sample = _sample(len(out.turns), out, samples) if pace == "full" else None
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


# ---- Discord --------------------------------------------------------------------------------------

def dc_turn(fake: FakeDiscord, reqs: Sequence[Any]) -> Turn:
    """Which requests reached the channel: channel messages, and interaction answers not ephemeral."""
    chan = f"/channels/{fake.channel_id}/messages"
    new = edits = deletes = 0
    for r in reqs:
        if r.status >= 300:
            continue
        body = r.json if isinstance(r.json, dict) else {}
        if r.path.startswith(chan):
            new += r.method == "POST"
            edits += r.method == "PATCH"
            deletes += r.method == "DELETE"
        elif r.path.endswith("/callback"):
            token = r.path.split("/")[3]
            flags = (body.get("data") or {}).get("flags", 0)
            inter = fake.interactions.get(token, {})
            new += body.get("type") in (4, 5) and not flags & EPHEMERAL and "guild_id" in inter
            target = (inter.get("message") or {}).get("flags", 0)
            edits += body.get("type") == 7 and not target & EPHEMERAL and "guild_id" in inter
        elif r.path.startswith("/webhooks/") and r.method in ("POST", "PATCH"):
            token = r.path.split("/")[3]
            shown = fake.messages.get(fake.original.get(token, 0), {})
            public = "guild_id" in fake.interactions.get(token, {}) and not (body.get("flags", 0) | shown.get("flags", 0)) & EPHEMERAL
            new += r.method == "POST" and public
            edits += r.method == "PATCH" and public
    return Turn(len(reqs), new, edits, deletes)


def dc_press(h: dc.Harness, hand: dict | None, user: dict, move: str, version: int) -> dict | None:
    for comp in dc.components(hand):
        try:
            data = decode(comp.get("custom_id"))
        except CodecError:
            continue
        if comp.get("label") == move and data.version == version:
            return h.fake.click(comp["custom_id"], hand, user=user)
    return None


def dc_play(h: dc.Harness, user: dict, text: str) -> dict:
    payload = h.fake.slash("rummy", user=user)
    payload["data"]["options"] = [{"name": "play", "type": 1, "options": [{"name": "text", "type": 3, "value": text}]}]
    return payload


async def dc_unrelated(h: dc.Harness, move: dict, under_429: bool) -> float | None:
    """Carol's /rummy help while the move is handled (and, under_429, the channel answers 429 to
    the next table edit); her delay in s, None when the 429 did not come."""
    mark = len(h.fake.requests)
    task = asyncio.create_task(h.send(move))
    await asyncio.sleep(0.01)
    ask = h.fake.slash("rummy", user=h.carol)
    ask["data"]["options"] = [{"name": "help", "type": 1, "options": []}]
    asked = time.perf_counter()
    carol = asyncio.create_task(h.send(ask))
    answer = await h.fake.wait_for_request("POST", rf"/interactions/{ask['id']}/[^/]+/callback", timeout=10)
    await carol
    await task
    hit = any(r.status == 429 for r in h.fake.requests[mark:])
    return answer.t - asked if hit or not under_429 else None


async def dc_match(game: str, pace: str, seed: int, options: str, samples: int) -> Match:
    fake = await FakeDiscord(dc.TOKEN).start()
    point_at(fake.api_base, fake.gateway_url)
    out = Match()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        h = dc.Harness(fake, str(Path(tmp) / "bench.db"), FakeClock())
        h.seed = seed
        await h.start()
        try:
            engine = get_engine(game)
            await h.slash("new", h.alice, game=game, options=options)
            await h.press(await h.table_message(), h.bob, "join")
            for _ in range(max(engine.min_seats, 3) - 2):
                await h.press(await h.table_message(), h.alice, "addai", "normal")
            await h.press(await h.table_message(), h.alice, "start")
            hands = {u["id"]: await h.hand(u) for u in (h.alice, h.bob)}
            first = len(fake.requests)
            chan = f"/channels/{fake.channel_id}/messages"
            while (rec := await h.table()).status == "playing" and len(out.turns) < MAX_TURNS:
                seat = engine.current_seat(rec.state)
                user = h.user_of(rec, seat)
                move = await h.ai_move(user)
                if pace == "human":
                    h.clock.advance(HUMAN_GAP_S)
                hand = fake.messages.get(int(hands[user["id"]]["id"]))
                payload = dc_press(h, hand, user, move, rec.version)
                pressed = payload is not None
                payload = payload or dc_play(h, user, move)
                sample = _sample(len(out.turns), out, samples) if pace == "full" else None
                n = len(fake.requests)
                if sample:
                    if sample == "429":
                        fake.fail_next("PATCH", rf"{chan}/\d+", 429, 1.0)
                    delay = await dc_unrelated(h, payload, sample == "429")
                    fake.failures.clear()
                    if delay is not None:
                        (out.unrelated if sample == "429" else out.baseline).append(delay)
                else:
                    await h.send(payload)
                if (await h.table()).log_seq == rec.log_seq:
                    raise RuntimeError(f"discord {game}: {move!r} was not played")
                out.pressed += pressed
                with_carol = {p["token"] for p in fake.interactions.values() if
                              (p.get("member") or {}).get("user", p.get("user", {})).get("id") == h.carol["id"]}
                mine = [r for r in fake.requests[n:] if not any(t in r.path for t in with_carol)]
                out.turns.append(dc_turn(fake, mine))
                try:
                    shown = h.message_of(payload)
                    if dc.is_hand(shown):
                        hands[user["id"]] = shown
                except KeyError:
                    pass
            out.finished = (await h.table()).status == "finished"
            reached = [r for r in fake.requests[first:] if r.status < 300 and r.method in ("POST", "PATCH")
                       and r.path.startswith(chan)]
            out.group_at = [r.at for r in reached]
            out.left = sum(1 for m in fake.messages.values() if m.get("channel_id") == str(fake.channel_id)
                           and not m.get("flags", 0) & EPHEMERAL and m["author"]["id"] == fake.bot_user["id"])
        finally:
            out.broke = len(fake.rejected) + len(fake.expired)
            fake.rejected.clear()  # reported instead of failing the harness's stop
            fake.expired.clear()
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
