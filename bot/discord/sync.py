"""Syncing the command tree only when it changed: Discord rate-limits command updates (and a sync
on every start of many shards or restarts wastes them), so the tree's JSON is hashed and the hash
kept in the store's chat settings; a start with the same tree skips the sync."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from discord import app_commands

from bot.core.i18n import available_languages, catalog
from storage import Store

PLATFORM = "discord"
SETTINGS_KEY = "app:commands"  # a chat_settings row of its own, never a real channel id


def tree_hash(tree: app_commands.CommandTree[Any]) -> str:
    """The tree as Discord receives it, with the catalog texts that translate it (a wording change
    in `dc.cmd.*` or `dc.opt.*` must sync too)."""
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    texts = {lang: {k: str(v) for k, v in sorted(catalog(lang).items()) if k.startswith(("dc.cmd.", "dc.opt."))}
             for lang in available_languages()}
    raw = json.dumps([payload, texts], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()


async def sync_if_changed(tree: app_commands.CommandTree[Any], store: Store) -> bool:
    """Sync when the tree differs from the last one synced; True when it did."""
    digest = tree_hash(tree)
    settings = dict(await store.chat_settings(PLATFORM, SETTINGS_KEY))
    if settings.get("tree_sha256") == digest:
        return False
    await tree.sync()
    settings["tree_sha256"] = digest
    await store.set_chat_settings(PLATFORM, SETTINGS_KEY, settings)
    return True
