"""Issue 27, item 9: Telegram's conventions. Command menus per scope and language, the bot's
descriptions, the Mini App as the menu button, an "add to group" link; a group that becomes a
supergroup takes its tables along; a group that removes the bot has its tables ended, and nothing
more is sent there."""

from __future__ import annotations

import html

from telegram.ext import CommandHandler

from bot.core.i18n import available_languages, t
from bot.telegram.common import TABLE_KEY, hand_key
from bot.telegram.profile import ADMINS, GROUP, PRIVATE, BotProfile, languages
from storage import TableRecord
from tests.telegram.bot_api_rules import commands_error, description_error, menu_button_error
from tests.telegram.conftest import GROUP_ID, Harness

SUPERGROUP = -1001234500


def calls_to_chat(h: Harness, chat_id: int, after: int = 0) -> list[str]:
    return [c.method for c in h.fake.calls[after:] if c.chat_id == chat_id]


async def playing(h: Harness) -> TableRecord:
    await h.open_lobby(users=(h.bob,))
    await h.say("/lang ru", h.alice, h.group)  # a chat setting, to follow the migration
    await h.press_verb(await h.table_message(), "start", h.alice)
    return await h.table()


async def move(h: Harness, rec: TableRecord) -> None:
    rec = await h.store.get_table(rec.id)
    assert rec is not None
    user = h.alice if rec.state["turn"] == 0 else h.bob
    await h.dm("draw", user)


# ---- the profile ---------------------------------------------------------------------------------

async def test_menus_per_scope_and_language_and_descriptions(h: Harness) -> None:
    codes = {code or "" for _, code in languages()}
    assert len(codes) == len(available_languages()) == 7
    assert set(h.fake.commands) == {(scope, code) for scope in ("all_private_chats", "all_group_chats",
                                                                 "all_chat_administrators") for code in codes}
    for code in codes:
        private = [c["command"] for c in h.fake.commands[("all_private_chats", code)]]
        group = [c["command"] for c in h.fake.commands[("all_group_chats", code)]]
        admins = [c["command"] for c in h.fake.commands[("all_chat_administrators", code)]]
        assert (private, group, admins) == (list(PRIVATE), list(GROUP), list(ADMINS))
    assert "new" not in PRIVATE and "hand" in PRIVATE and "lang" not in GROUP and {"lang", "look"} <= set(ADMINS)
    ru = {c["command"]: c["description"] for c in h.fake.commands[("all_group_chats", "ru")]}
    assert ru["new"] == t("tg.cmd.new", "ru") != t("tg.cmd.new", "en")
    assert set(h.fake.descriptions) == set(h.fake.short_descriptions) == codes
    assert h.fake.descriptions["pt"] == t("tg.bot_description", "pt_BR")
    assert h.fake.short_descriptions[""] == t("tg.bot_short_description", "en")
    assert h.fake.menu_button == {"type": "default"}  # no web table: Telegram's own menu
    assert not h.fake.rejected


async def test_every_command_a_menu_offers_is_handled(h: Harness) -> None:
    handled = {c for group in h.app.handlers.values() for handler in group
               if isinstance(handler, CommandHandler) for c in handler.commands}
    assert set(PRIVATE + ADMINS) <= handled


async def test_a_restart_sets_the_profile_again_only_when_it_changed(h: Harness) -> None:
    await h.stop()
    n = len(h.fake.calls)
    await h.start()
    profile = {"setMyCommands", "setMyDescription", "setMyShortDescription", "setChatMenuButton"}
    assert not [c for c in h.fake.calls[n:] if c.method in profile]
    # The web table served over HTTPS: the menu button becomes the Mini App, set once.
    apply = BotProfile(h.store, h.tg.outbox.call).apply
    assert await apply(h.app.bot, "https://web.example/", "en", h.clock.now()) == 7 * 5 + 1
    assert h.fake.menu_button == {"type": "web_app", "text": "Play", "web_app": {"url": "https://web.example/"}}
    assert await apply(h.app.bot, "https://web.example/", "en", h.clock.now()) == 0


async def test_a_failed_profile_call_is_tried_again_at_the_next_start(h: Harness) -> None:
    h.fake.fail_next("setMyDescription", 500, "Internal Server Error")
    apply = BotProfile(h.store, h.tg.outbox.call).apply
    url = "https://other.example/"  # a new profile (the one of the start is set already)
    assert await apply(h.app.bot, url, "en", h.clock.now()) > 0
    assert await apply(h.app.bot, url, "en", h.clock.now()) > 0, "not all of it was set: again"
    assert await apply(h.app.bot, url, "en", h.clock.now()) == 0


def test_the_fake_refuses_what_telegram_refuses() -> None:
    ok = {"command": "new", "description": "open a table"}
    assert commands_error({"commands": [ok]}) is None
    assert commands_error({"commands": [ok] * 2}) == "Bad Request: BOT_COMMAND_INVALID"  # a name twice
    assert commands_error({"commands": [{**ok, "command": "New"}]}) == "Bad Request: BOT_COMMAND_INVALID"
    assert commands_error({"commands": [{**ok, "command": "n" * 33}]}) == "Bad Request: BOT_COMMAND_INVALID"
    assert commands_error({"commands": [{**ok, "description": ""}]}) == "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID"
    assert commands_error({"commands": [{**ok, "description": "d" * 257}]}) is not None
    many = [{"command": f"c{i}", "description": "d"} for i in range(101)]
    assert commands_error({"commands": many}) == "Bad Request: BOT_COMMANDS_TOO_MUCH"
    assert commands_error({"commands": [ok], "scope": {"type": "everyone"}}) is not None
    assert commands_error({"commands": [ok], "language_code": "pt_BR"}) is not None
    assert description_error({"description": "d" * 512}, "description", 512) is None
    assert description_error({"description": "d" * 513}, "description", 512) is not None
    assert description_error({"short_description": "d" * 121}, "short_description", 120) is not None
    web_app = {"type": "web_app", "text": "Play", "web_app": {"url": "http://web.example/"}}
    assert menu_button_error({"menu_button": web_app}) == "Bad Request: BUTTON_URL_INVALID"


async def test_start_and_help_in_private_offer_to_add_the_bot_to_a_group(h: Harness) -> None:
    await h.dm("/start", h.alice)
    await h.dm("/help", h.alice)
    for reply in h.fake.calls_to("sendMessage")[-2:]:
        [[button]] = reply.params["reply_markup"]["inline_keyboard"]
        assert button == {"text": "Add to a group", "url": "https://t.me/rummy_test_bot?startgroup=table"}
    n = len(h.fake.calls)
    await h.say("/help", h.alice, h.group)
    assert "reply_markup" not in h.fake.calls_to("sendMessage", n)[0].params
    # Added through the link: the bot says hello once (on joining), not again for the link's /start.
    n = len(h.fake.calls)
    await h.settle(h.fake.add_bot(h.fake.group(-100777, "New friends"), h.alice))
    await h.say("/start table", h.alice, h.fake.group(-100777, "New friends"))
    assert [c.params["text"] for c in h.fake.calls_to("sendMessage", n)] == [html.escape(t("tg.start_group", "en"))]


# ---- a group becomes a supergroup --------------------------------------------------------------

async def test_a_migrated_group_takes_its_table_and_settings_along(h: Harness) -> None:
    rec = await playing(h)
    old_message = (await h.store.table_refs(rec.id))[TABLE_KEY]
    for update in h.fake.migrate(GROUP_ID, SUPERGROUP, h.alice):
        await h.settle(update)
    moved = await h.store.get_table(rec.id)
    assert moved is not None and moved.chat_id == str(SUPERGROUP) and moved.status == "playing"
    assert (await h.store.chat_settings("telegram", str(SUPERGROUP)))["lang"] == "ru"
    new_message = (await h.store.table_refs(rec.id))[TABLE_KEY]
    assert new_message != old_message and "Румми" in h.fake.messages[(SUPERGROUP, new_message)]["text"]
    n = len(h.fake.calls)
    await move(h, rec)
    assert calls_to_chat(h, GROUP_ID, n) == []
    assert calls_to_chat(h, SUPERGROUP, n) == ["editMessageText"]
    assert (await h.store.active_table_for_chat("telegram", str(SUPERGROUP))) is not None
    assert (await h.store.active_table_for_chat("telegram", str(GROUP_ID))) is None


async def test_a_send_refused_as_migrated_moves_the_table_too(h: Harness) -> None:
    rec = await playing(h)
    h.fake.migrate(GROUP_ID, SUPERGROUP, h.alice, tell=False)  # the service messages not seen (yet)
    n = len(h.fake.calls)
    await move(h, rec)
    refused = [c for c in h.fake.calls[n:] if c.chat_id == GROUP_ID]
    assert [(c.method, c.status) for c in refused] == [("editMessageText", 400)]  # once, then never again
    moved = await h.store.get_table(rec.id)
    assert moved is not None and moved.chat_id == str(SUPERGROUP)
    shown = h.fake.messages[(SUPERGROUP, (await h.store.table_refs(rec.id))[TABLE_KEY])]
    assert moved.log_seq == rec.log_seq + 1 and "Румми" in shown["text"]  # the move, shown in the supergroup
    n = len(h.fake.calls)
    for update in h.fake.migrate(GROUP_ID, SUPERGROUP, h.alice):  # told afterwards: nothing more to do
        await h.settle(update)
    assert [c for c in h.fake.calls[n:] if c.chat_id is not None] == []


# ---- the bot removed from a group -------------------------------------------------------------

async def test_removed_from_the_group_the_table_ends_and_the_players_are_told_in_private(h: Harness) -> None:
    rec = await playing(h)
    n = len(h.fake.calls)
    await h.settle(h.fake.remove_bot(h.group, h.carol, status="kicked"))  # banned: as removed
    ended = await h.store.get_table(rec.id)
    assert ended is not None and ended.status == "abandoned" and ended.deadline is None
    assert calls_to_chat(h, GROUP_ID, n) == [], "nothing is tried in a group the bot left"
    for user in (h.alice, h.bob):  # their hands speak their own language (English)
        assert t("tg.removed_from_group", "en") in (await h.hand_message(user, ended))["text"]
    # Moves of the ended table are refused, and still nothing goes to the group.
    await h.dm("draw", h.alice)
    await h.dm("draw", h.bob)
    assert calls_to_chat(h, GROUP_ID, n) == []
    # Back in the group: a hello, and a new table can be opened.
    await h.settle(h.fake.add_bot(h.group, h.alice))
    await h.say("/new rummikub", h.alice, h.group)
    assert (await h.table()).status == "lobby" and (await h.table()).id != rec.id


async def test_a_send_refused_as_forbidden_ends_the_group_tables_once(h: Harness) -> None:
    rec = await playing(h)
    h.fake.removed_from.add(GROUP_ID)  # kicked, the update not (yet) seen
    n = len(h.fake.calls)
    await move(h, rec)
    assert [(m, c.status) for m, c in ((c.method, c) for c in h.fake.calls[n:] if c.chat_id == GROUP_ID)] == \
        [("editMessageText", 403)]
    ended = await h.store.get_table(rec.id)
    assert ended is not None and ended.status == "abandoned"
    refs = await h.store.table_refs(rec.id)
    assert refs.get(hand_key(str(h.alice["id"])))
    n = len(h.fake.calls)
    await h.settle(h.fake.remove_bot(h.group, h.carol))  # the update comes after: nothing more to end
    assert [c for c in h.fake.calls[n:] if c.chat_id is not None] == []


async def test_a_lobby_of_a_group_that_removed_the_bot_ends_too(h: Harness) -> None:
    rec = await h.open_lobby(users=(h.bob,))
    n = len(h.fake.calls)
    await h.settle(h.fake.remove_bot(h.group, h.alice))
    ended = await h.store.get_table(rec.id)
    assert ended is not None and ended.status == "abandoned"
    assert [c for c in h.fake.calls[n:] if c.chat_id is not None] == []  # no hands yet: nobody to tell
