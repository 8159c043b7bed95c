"""`rummyclub`: run the bot (or the terminal table), play in a terminal, simulate AI matches, back up
or migrate the database."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import logging
import os
import sys
import tempfile
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot import event_loop
from bot.console.app import PLATFORM as CONSOLE
from bot.console.app import TERMINAL_OWNER, YOU, ConsoleTable
from bot.console.colour import colour_wanted, coloured
from bot.console.seats import default_opponents, levels_error, seats_error
from bot.console.session import Request, Session
from bot.console.terminal import TerminalInput
from bot.console.tui.mode import full_screen_wanted
from bot.core.ai_seats import ai_level
from bot.core.i18n import DEFAULT_LANG, environment_language, t
from bot.core.models import Outcome, ServiceError
from bot.core.options_text import parse_option
from bot.core.render import render_error
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from bot.logs import Redactor, database_password, secrets_of, setup_logging
from bot.running import close_service
from bot.settings import Settings
from bot.simulate import simulate
from bot.startup import Context, StartupError, check_tokens, explain, load_settings
from bot.stopping import DEFAULT_GRACE_S, Grace
from rules import engine_names, get_engine
from storage import (
    ClaimScope,
    DatabaseUnusable,
    MemoryStore,
    PostgresStore,
    SqliteStore,
    Store,
    display_url,
    open_store,
)
from storage import schema_version as read_schema_version
from storage.transfer import TransferError, copy_store

log = logging.getLogger("rummyclub")


def _option(text: str) -> tuple[str, str]:
    # One -o is one word already (the shell split the line): `-o "match_length=3 rounds"`.
    try:
        return parse_option(text)
    except ServiceError as err:
        raise argparse.ArgumentTypeError(render_error(err)) from None


def _levels(text: str) -> list[str]:
    try:
        return [ai_level(word) for word in text.split(",")]
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
    run.add_argument("--line", action="store_true", help="the terminal table line by line, not full screen")

    play = sub.add_parser("play", help="play in the terminal against AI players")
    play.add_argument("game", type=_game, help=f"one of: {', '.join(engine_names())}")
    play.add_argument("--ai", type=int, help="AI opponents (default: what plays well, e.g. 3 in Rummikub, 2 in "
                      "Rummy 101)")
    play.add_argument("--ai-level", type=_levels, default=[], metavar="LEVEL[,LEVEL...]",
                      help="how the AI opponents play: easy, normal (the default) or strong; one level for all, "
                      "or one per opponent in seat order (the last fills the rest)")
    play.add_argument("--seed", type=int, help="fix the shuffle")
    play.add_argument("--option", "-o", type=_option, action="append", default=[], metavar="KEY=VALUE",
                      help="a table option, e.g. -o initial_meld_min=25 (repeatable)")
    play.add_argument("--new", action="store_true", help="end an unfinished terminal game and start anew")
    play.add_argument("--db", help="database URL or file (default: DATABASE_URL)")
    play.add_argument("--line", action="store_true", help="line by line, not full screen (as with a pipe)")
    play.add_argument("--web", action="store_true", help="also serve the table in a browser and print your link "
                      "(WEB_LISTEN, WEB_PORT, WEB_URL; a free port when WEB_PORT is unset)")

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

    migrate = sub.add_parser("migrate", help="bring the database schema up to date, without starting the bot")
    migrate.add_argument("--db", help="database URL or file (default: DATABASE_URL)")

    export = sub.add_parser("export", help="copy every table, result and setting into another, empty database")
    export.add_argument("source", help="the database to copy, e.g. sqlite:///data/rummyclub.db")
    export.add_argument("target", help="an empty database, e.g. postgresql://rummy@db/rummy (migrated first)")
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


def _write(text: str) -> None:
    # A terminal closed under a session (SIGHUP) fails every write with EIO: the session still has
    # its store to close, so what cannot be shown any more is dropped.
    with contextlib.suppress(OSError):
        print(text, flush=True)


async def _full_screen(store: Store, lang: str, request: Request | None, web: Settings | None, tick_s: float,
                       grace_s: float) -> int:
    """The full-screen table (bot/console/tui) on the store: the same service, clock and web server
    as the line mode, and the same way down (the moves in flight stored, the store closed)."""
    service = TableService(store, owner=TERMINAL_OWNER)
    served = contextlib.AsyncExitStack()
    said: list[str] = []
    try:
        replay_url = None
        if web is not None:
            from bot.web.server import serve_terminal  # aiohttp's server loads only when asked for

            server = await served.enter_async_context(
                serve_terminal(service, store, web, lambda url: said.append(t("web.link", lang, url=url)), lang, YOU))
            replay_url = functools.partial(server.replay_url, lang=lang)
        from bot.console.tui.run import play_full_screen  # Textual loads only for the full screen

        code = await play_full_screen(service, lang, request, tick_s, replay_url, tuple(said))
        _write(t("console.bye", lang))
        return code
    finally:
        grace = Grace(grace_s)
        try:
            await served.aclose()
        finally:
            await close_service(service, store, grace)


async def _session(db: str, lang: str, request: Request | None, web: Settings | None = None,
                   tick_s: float = 1.0, grace_s: float = DEFAULT_GRACE_S, full_screen: bool = False) -> int:
    """A terminal session on the database at `db`: Ctrl-C, SIGTERM or SIGHUP at any moment ends it
    like `quit` (every accepted move is already committed), and the store is closed on every way
    out. The table's clock ticks every `tick_s` as in the bots (a turn timer, the moves a killed
    terminal left). With `web`, the table is served in a browser too and the player's seat link is
    printed."""
    store = await _open(db)
    if full_screen:
        return await _full_screen(store, lang, request, web, tick_s, grace_s)
    reader = TerminalInput(t("console.prompt", lang))
    served = contextlib.AsyncExitStack()
    # The terminal's tables only: a bot process on the same database runs its own platforms' clocks.
    service = TableService(store, owner=TERMINAL_OWNER, scope=ClaimScope(platforms=(CONSOLE,)))
    clock: Scheduler | None = None
    try:
        reader.start()
        replay_url = None
        if web is not None:
            from bot.web.server import serve_terminal  # aiohttp's server loads only when asked for

            server = await served.enter_async_context(
                serve_terminal(service, store, web, lambda url: _write(t("web.link", lang, url=url)), lang, YOU))
            replay_url = functools.partial(server.replay_url, lang=lang)  # `history` links each replay
        # Colour goes on after ConsoleTable's clean(): only our own escapes reach the terminal.
        colour = colour_wanted()
        table = ConsoleTable(service, reader, coloured(_write, colour), lang, prompt=coloured(reader.show_moves, colour),
                             replay_url=replay_url)

        async def show_clock(outcomes: list[Outcome]) -> None:
            if any(table.is_mine(o.table) for o in outcomes):
                reader.leave_prompt()
                await table.show_clock(outcomes)
                reader.repeat_prompt()

        clock = Scheduler(service, tick_s, show_clock)
        session = Session(service, table, clock=clock)
        try:
            return await session.run(request)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if not reader.interrupted or task is None:
                raise
            task.uncancel()  # our own Ctrl-C or stop signal, not a shutdown: leave cleanly
            _write("")
            _write(t("console.bye", lang))
            return 0
    finally:
        # The way down of every mode (bot/stopping.py): no more input or web moves, the clock
        # stopped, the moves in flight stored within the grace (or handed back), the store closed.
        reader.close()
        grace = Grace(grace_s)
        try:
            await served.aclose()
            if clock is not None:
                await clock.stop(grace.left())
        finally:
            await close_service(service, store, grace)
            reader.detach()


async def _play(game: str, ai: int | None, options: dict[str, Any], seed: int | None, new: bool, db: str,
                lang: str, levels: list[str] | None = None, web: Settings | None = None,
                tick_s: float = 1.0, grace_s: float = DEFAULT_GRACE_S, full_screen: bool = False) -> int:
    if ai is not None and (problem := seats_error(game, ai, lang)) is not None:
        _write(problem)
        return 2
    levels = levels or []
    if (problem := levels_error(default_opponents(game) if ai is None else ai, levels, lang)) is not None:
        _write(problem)
        return 2
    return await _session(db, lang, Request(game, ai, options, seed, new, levels), web, tick_s, grace_s, full_screen)


async def _pick_game(db: str, lang: str, web: Settings | None = None, tick_s: float = 1.0,
                     grace_s: float = DEFAULT_GRACE_S, full_screen: bool = False) -> int:
    """`rummyclub run` with no chat token: the unfinished terminal game, or the game picker."""
    return await _session(db, lang, None, web, tick_s, grace_s, full_screen)


def _run_discord(settings: Settings, db: str) -> int:
    """DISCORD_TOKEN set: Discord alone, or next to Telegram in one process when both are set."""
    from bot.discord import app as discord_app  # discord.py loads only when it is used

    event_loop.run(_check_store(db))
    runner = discord_app.run_with_telegram if settings.telegram_token else discord_app.run
    return event_loop.run(runner(settings, open_store(db, (settings.pg_pool_min, settings.pg_pool_max))))


def terminal_lang(settings: Settings, environ: Mapping[str, str] = os.environ) -> str:
    """The terminal's language: DEFAULT_LANG when it is set (.env or the environment), else the
    terminal's own locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG: `ru_RU.UTF-8` → ru), else English."""
    if "default_lang" in settings.model_fields_set:
        return settings.default_lang
    return environment_language(environ) or DEFAULT_LANG


def _run_telegram(settings: Settings, db: str) -> int:
    from bot.telegram.app import run_from_settings  # python-telegram-bot loads only when it is used

    event_loop.run(_check_store(db))
    return run_from_settings(settings, open_store(db, (settings.pg_pool_min, settings.pg_pool_max)))


async def _run(settings: Settings, db: str, full_screen: bool = False) -> int:
    return await _pick_game(db, terminal_lang(settings), settings if settings.web_port else None,
                            settings.tick_interval_s, settings.shutdown_grace_s, full_screen)


def _full_screen_wanted(args: argparse.Namespace) -> bool:
    return not getattr(args, "line", False) and full_screen_wanted(sys.stdin, sys.stdout, os.environ)


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
    _write(t("sim.summary", matches=t("count.matches", n=summary.matches), rounds=t("count.games", n=summary.rounds),
             actions=t("count.actions", n=summary.actions), seconds=summary.seconds, rate=summary.actions_per_second))
    _write(t("sim.ends", ends=", ".join(f"{k} {v}" for k, v in sorted(summary.round_ends.items()))))
    _write(t("sim.wins", wins=" ".join(str(w) for w in summary.wins)))
    _write(t("sim.scores", totals=" ".join(str(x) for x in summary.totals)))
    return 0


async def _migrate(url: str, setting: str) -> int:
    """Open the store (opening migrates it: SQLite under its write lock, PostgreSQL under an advisory
    lock, so a bot starting meanwhile is safe) and name the schema version reached."""
    if isinstance(open_store(url), MemoryStore):
        raise StartupError(f"{setting}: {url} keeps nothing to migrate — point {setting} at the database")
    store = await _open(url)
    try:
        number, name = await read_schema_version(store)
    finally:
        await store.close()
    where = store.path if isinstance(store, SqliteStore) else display_url(url)
    _write(f"{where}: schema version {number} ({name}), up to date")
    return 0


async def _export(source: str, target: str) -> int:
    """Both stores are opened (so migrated) first: the copy runs between two schemas of this version."""
    if isinstance(open_store(source), MemoryStore) or isinstance(open_store(target), MemoryStore):
        raise StartupError("memory:// keeps nothing — export between SQLite files and PostgreSQL databases")
    src = await _open(source)
    try:
        dst = await _open(target)
        try:
            copied = await copy_store(src, dst)
        except TransferError as err:
            raise StartupError(f"{display_url(target)}: {err}") from err
        finally:
            await dst.close()
    finally:
        await src.close()
    _write(f"copied {display_url(source)} to {display_url(target)}: "
           + ", ".join(f"{table} {n}" for table, n in copied.items()))
    return 0


async def _backup(url: str, target: Path, force: bool, setting: str) -> int:
    store = open_store(url)
    if isinstance(store, PostgresStore):
        raise StartupError(f"{setting}: a PostgreSQL database is backed up with pg_dump, e.g. pg_dump -Fc -f "
                           f"rummyclub.dump '{display_url(url)}' (and restored with pg_restore)")
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
        return event_loop.run(_run(settings, db, _full_screen_wanted(args)))
    if args.command == "play":
        return event_loop.run(_play(args.game, args.ai, dict(args.option), args.seed, args.new, db,
                                 terminal_lang(settings), args.ai_level,
                                 settings if args.web or settings.web_port else None,
                                 settings.tick_interval_s, settings.shutdown_grace_s, _full_screen_wanted(args)))
    if args.command == "backup":
        return event_loop.run(_backup(db, Path(args.path), args.force, ctx.db_setting))
    if args.command == "migrate":
        return event_loop.run(_migrate(db, ctx.db_setting))
    if args.command == "export":
        return event_loop.run(_export(args.source, args.target))
    return event_loop.run(_simulate(args))


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
        lang = terminal_lang(settings)
        debug = settings.log_level == "DEBUG"
        urls = [getattr(args, name, None) or "" for name in ("db", "source", "target")]
        redact = Redactor([*secrets_of(settings), *(database_password(u) or "" for u in urls)])
        setup_logging(settings.log_level, redact, settings.log_format)
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
