"""The webhook on aiohttp (bot/telegram/webhook.py): only Telegram's secret opens it, only JSON
updates are queued (where polling would put them), anything else is refused without a traceback.
(tests/telegram/test_cli_run.py runs the whole bot in webhook mode against the fake Bot API.)"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from telegram import Update
from telegram.ext import Application, ApplicationBuilder

from bot.telegram.webhook import SECRET_HEADER, receiver
from tests.telegram.conftest import TOKEN

UPDATE = {"update_id": 7, "message": {"message_id": 1, "date": 0, "text": "/help",
                                      "chat": {"id": 5, "type": "private"}, "from": {"id": 5, "is_bot": False,
                                                                                      "first_name": "Zoe"}}}


@pytest.fixture
async def hook() -> AsyncIterator[tuple[TestClient, Application]]:
    app = ApplicationBuilder().token(TOKEN).build()
    server = web.Application()
    server.router.add_post("/tg/hook", receiver(app, "s3cret"))
    client = TestClient(TestServer(server))
    await client.start_server()
    yield client, app
    await client.close()


async def test_an_update_with_the_secret_is_queued(hook: tuple[TestClient, Application]) -> None:
    client, app = hook
    answer = await client.post("/tg/hook", json=UPDATE, headers={SECRET_HEADER: "s3cret"})
    assert answer.status == 200
    queued = app.update_queue.get_nowait()
    assert isinstance(queued, Update) and queued.update_id == 7 and queued.message.text == "/help"


@pytest.mark.parametrize("headers", [{}, {SECRET_HEADER: "wrong"}, {SECRET_HEADER: "s3cret-and-more"}])
async def test_without_the_secret_nothing_is_queued(hook: tuple[TestClient, Application], headers: dict[str, str]) -> None:
    client, app = hook
    assert (await client.post("/tg/hook", json=UPDATE, headers=headers)).status == 403
    assert app.update_queue.empty()


async def test_what_is_no_update_is_refused(hook: tuple[TestClient, Application]) -> None:
    client, app = hook
    secret = {SECRET_HEADER: "s3cret"}
    assert (await client.post("/tg/hook", data="update_id=7", headers=secret)).status == 403  # not JSON
    bad = await client.post("/tg/hook", data="{not json", headers={**secret, "Content-Type": "application/json"})
    assert bad.status == 400
    assert (await client.post("/tg/hook", json=[1, 2], headers=secret)).status == 400
    assert (await client.get("/tg/hook")).status == 405
    assert app.update_queue.empty()
