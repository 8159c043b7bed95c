"""`rummyclub`: run the bot (or the terminal table), play in a terminal, simulate AI matches."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Any

from bot.console.app import ConsoleTable
from bot.console.guide import guide_reply
from bot.core.i18n import t
from bot.core.models import ServiceError
from bot.core.options_text import parse_option
from bot.core.render import render_error
from bot.core.service import TableService
from bot.logs import Redactor, database_password, secrets_of, setup_logging
from bot.settings import Settings
from bot.simulate import simulate
from bot.startup import Context, StartupError, check_tokens, explain, load_settings
from rules import engine_names, get_engine
from storage import DatabaseUnusable, SqliteStore, Store, open_store

log = logging.getLogger("rummyclub")


def _option(text: str) -> tuple[str, str]:
    # One -o is one word already (the shell split the line): `-o "match_length=3 rounds"`.
    try:
        return parse_option(text)
    except ServiceError as err:
        raise argparse.ArgumentTypeError(render_error(err)) from None


def _game(text: str) -> str:
    try:
        return get_engine(text).name
    except KeyError as err:
        raise argparse.ArgumentTypeError(str(err.args[0])) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rummyclub", description="Rummy-family games for friends.")
    sub = parser.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="start the bot; with no chat token, a terminal table")
    run.add_argument("--db", help="database URL or file (default: DATABASE_URL)")

    play = sub.add_parser("play", help="play in the terminal against AI players")
    play.add_argument("game", type=_game, help=f"one of: {', '.join(engine_names())}")
    play.add_argument("--ai", type=int, default=3, help="AI opponents (default 3)")
    play.add_argument("--seed", type=int, help="fix the shuffle")
    play.add_argument("--option", "-o", type=_option, action="append", default=[], metavar="KEY=VALUE",
                      help="a table option, e.g. -o initial_meld_min=25 (repeatable)")
    play.add_argument("--new", action="store_true", help="end an unfinished terminal game and start anew")
    play.add_argument("--db", help="database URL or file (default: DATABASE_URL)")

    sim = sub.add_parser("simulate", help="AI-only matches through the table service and SQLite")
    sim.add_argument("game", type=_game)
    sim.add_argument("--games", type=int, default=10)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--seats", type=int, default=4)
    sim.add_argument("--option", "-o", type=_option, action="append", default=[], metavar="KEY=VALUE")
    sim.add_argument("--db", help="keep the games in this SQLite file (default: a temporary file)")

    backup = sub.add_parser("backup", help="a consistent copy of the database, safe while the bot runs")
    backup.add_argument("path", help="the file to write")
    backup.add_argument("--db", help="database URL or file (default: DATABASE_URL)")
    backup.add_argument("--force", action="store_true", help="replace PATH if it exists")
    return parser


def _make_folder(url: str) -> None:
    """A new database file may go in a folder that does not exist yet (data/ on a fresh checkout)."""
    if url.startswith("sqlite:///") or "://" not in url:
        path = url.removeprefix("sqlite:///")
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise DatabaseUnusable(path, "no_folder", err.strerror or str(err)) from err


async def _open(url: str) -> Store:
    _make_folder(url)
    store = open_store(url)
    await store.open()
    return store


async def _check_store(url: str) -> None:
    """Open (and migrate) the database once before any platform is contacted: a bad database file
    is reported as such, not after a token check or from inside a library's start-up."""
    store = await _open(url)
    await store.close()


def _stdin_reader() -> Any:
    async def read() -> str | None:
        sys.stdout.write(t("console.prompt"))
        sys.stdout.flush()
        line = await asyncio.to_thread(sys.stdin.readline)
        return line if line else None

    return read


def _write(text: str) -> None:
    print(text, flush=True)


async def _play(game: str, ai: int, options: dict[str, Any], seed: int | None, new: bool, db: str, lang: str) -> int:
    store = await _open(db)
    try:
        console = ConsoleTable(TableService(store), _stdin_reader(), _write, lang)
        engine = get_engine(game)
        if not engine.min_seats <= ai + 1 <= engine.max_seats:
            _write(f"{game} takes {engine.min_seats}-{engine.max_seats} players: use --ai "
                   f"{engine.min_seats - 1}..{engine.max_seats - 1}")
            return 2
        # The terminal has no one to wait for: the turn timer is off unless asked for.
        options = {"turn_timer_s": 0, **options}
        try:
            rec = await console.open_or_resume(game, ai, options, seed, new)
        except Exception as err:  # ServiceError for a bad option: say which and stop
            from bot.core.render import render_error

            _write(render_error(err, lang))
            return 2
        if rec is None:
            return 1
        return await console.run(rec)
    finally:
        await store.close()


async def _pick_game(lang: str) -> str | None:
    games = engine_names()
    _write(t("console.pick_game", lang, games=", ".join(f"{i + 1}. {g}" for i, g in enumerate(games))))
    while True:
        line = await _stdin_reader()()
        if line is None:
            return None
        if (guide := guide_reply(line, None, lang)) is not None:  # `rules rummikub` before choosing
            _write(guide)
            continue
        choice = line.strip().lower() or "1"
        if choice.isdigit() and 1 <= int(choice) <= len(games):
            return games[int(choice) - 1]
        if choice in games:
            return choice
        _write(t("console.unknown_game", lang, game=choice, games=", ".join(games)))


def _run_discord(settings: Settings, db: str) -> int:
    """DISCORD_TOKEN set: Discord alone, or next to Telegram in one process when both are set."""
    from bot.discord import app as discord_app  # discord.py loads only when it is used

    asyncio.run(_check_store(db))
    runner = discord_app.run_with_telegram if settings.telegram_token else discord_app.run
    return asyncio.run(runner(settings, open_store(db)))


def _run_telegram(settings: Settings, db: str) -> int:
    from bot.telegram.app import run_from_settings  # python-telegram-bot loads only when it is used

    asyncio.run(_check_store(db))
    return run_from_settings(settings, open_store(db))


async def _run(settings: Settings, db: str) -> int:
    store = await _open(db)
    try:
        existing = await store.active_table_for_chat("console", "terminal")
    finally:
        await store.close()
    game = existing.game if existing and existing.status == "playing" else await _pick_game(settings.default_lang)
    if game is None:
        return 0
    return await _play(game, 3, {}, None, False, db, settings.default_lang)


async def _simulate(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "simulate.db")
        store = await _open(db)
        try:
            summary = await simulate(store, args.game, args.games, args.seed, args.seats, dict(args.option))
        except ServiceError as err:  # a bad -o: say which, as `play` does
            _write(render_error(err))
            return 2
        finally:
            await store.close()
    _write(t("sim.summary", matches=summary.matches, rounds=summary.rounds, actions=summary.actions,
             seconds=summary.seconds, rate=summary.actions_per_second))
    _write(t("sim.ends", ends=", ".join(f"{k} {v}" for k, v in sorted(summary.round_ends.items()))))
    _write(t("sim.wins", wins=" ".join(str(w) for w in summary.wins)))
    _write(t("sim.scores", totals=" ".join(str(x) for x in summary.totals)))
    return 0


async def _backup(url: str, target: Path, force: bool, setting: str) -> int:
    store = open_store(url)
    if not isinstance(store, SqliteStore):
        raise StartupError(f"{setting}: {url} keeps nothing on disk to back up — point {setting} at the SQLite file")
    if target.is_dir():
        raise StartupError(f"{target} is a folder — name the backup file, e.g. {target / 'rummyclub-backup.db'}")
    if target.exists() and not force:
        raise StartupError(f"{target} already exists — pass --force to replace it, or name another file")
    if target.exists() and target.resolve() == Path(store.path).resolve():
        raise StartupError(f"{target} is the database itself — name another file")
    if not target.parent.is_dir():
        raise StartupError(f"no folder {target.parent} for the backup — create it first")
    try:
        with tempfile.TemporaryFile(dir=target.parent):  # the copy is written next to PATH first
            pass
    except OSError as err:
        raise StartupError(f"cannot write in {target.parent} ({err.strerror}) — back up to another folder") from err
    await store.backup(target)
    _write(f"backed up {store.path} to {target} ({target.stat().st_size} bytes)")
    return 0


def _dispatch(args: argparse.Namespace, settings: Settings, db: str, ctx: Context) -> int:
    if args.command == "run":
        if settings.discord_token or settings.telegram_token:
            check_tokens(settings)
        if settings.discord_token:
            return _run_discord(settings, db)
        if settings.telegram_token:
            return _run_telegram(settings, db)
        return asyncio.run(_run(settings, db))
    if args.command == "play":
        return asyncio.run(_play(args.game, args.ai, dict(args.option), args.seed, args.new, db,
                                 settings.default_lang))
    if args.command == "backup":
        return asyncio.run(_backup(db, Path(args.path), args.force, ctx.db_setting))
    return asyncio.run(_simulate(args))


def _fail(failure: StartupError, err: BaseException, debug: bool, redact: Redactor) -> int:
    """One line per cause on stderr; the traceback too only when debugging (never a secret)."""
    if debug:
        sys.stderr.write(redact("".join(traceback.format_exception(err))))
    for line in failure.lines:
        sys.stderr.write(f"rummyclub: {redact(line)}\n")
    sys.stderr.flush()
    return failure.exit_code


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # Until the settings are read, LOG_LEVEL from the environment alone decides on the traceback.
    debug = os.environ.get("LOG_LEVEL", "").strip().upper() == "DEBUG"
    redact = Redactor(())
    ctx = Context()
    lang = "en"
    try:
        settings = load_settings()
        lang = settings.default_lang
        debug = settings.log_level == "DEBUG"
        redact = Redactor([*secrets_of(settings), database_password(getattr(args, "db", None) or "") or ""])
        setup_logging(settings.log_level, redact)
        db = getattr(args, "db", None) or settings.database_url
        ctx = Context(db_setting="--db" if getattr(args, "db", None) else "DATABASE_URL",
                      telegram_api_url=settings.telegram_api_url, discord_api_url=settings.discord_api_url)
        return _dispatch(args, settings, db, ctx)
    except KeyboardInterrupt:
        _write(t("console.bye", lang))
        return 0
    except Exception as err:
        failure = explain(err, ctx)
        if failure is None:  # not a failure we know: a bug, so its traceback stays (redacted)
            sys.stderr.write(redact("".join(traceback.format_exception(err))))
            sys.stderr.write("rummyclub: unexpected error (a bug) — please report it with the traceback above\n")
            return 1
        return _fail(failure, err, debug, redact)


if __name__ == "__main__":
    sys.exit(main())
