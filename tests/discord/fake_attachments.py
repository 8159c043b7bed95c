"""Attachments on the fake Discord's messages, as Discord keeps them.

A message's files come as multipart parts `files[n]` next to `payload_json`, whose `attachments`
lists them (`{"id": n, "filename": …}`, n the upload's index); on an edit the list is what the
message keeps: ids of attachments it already has stay, indices of new uploads are added, anything
else goes (discord.py's `attachments=[File]` replaces a picture this way). Without the key an edit
leaves them alone. Limits (Discord's defaults): ten attachments a message (50035), 25 MiB each
(413, 40005 "Request entity too large"). An embed showing `attachment://name` needs an attachment
of that name on its message, else Discord shows nothing: such embeds are kept in `missing`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

JSON = dict[str, Any]
ATTACHMENTS_MAX = 10
ATTACHMENT_BYTES_MAX = 25 * 1024 * 1024  # the default upload limit (boosted servers allow more)


def attachment_errors(body: JSON | None, files: dict[str, bytes]) -> JSON:
    if len((body or {}).get("attachments") or []) > ATTACHMENTS_MAX or len(files) > ATTACHMENTS_MAX:
        return {"attachments": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 10 or fewer in length."}]}}
    return {}


def too_large(files: dict[str, bytes]) -> bool:
    return any(len(data) > ATTACHMENT_BYTES_MAX for data in files.values())


def attach(stored: dict[str, bytes], new_id: Callable[[], str], msg: JSON, body: JSON | None,
           files: dict[str, bytes], missing: list[tuple[str, str]]) -> None:
    """Apply a body's attachments (and its uploads, by file name) to its message."""
    body = body or {}
    if "attachments" in body or files:
        old = {a["id"]: a for a in msg.get("attachments") or []}
        out = []
        for a in body.get("attachments") or [{"id": i, "filename": n} for i, n in enumerate(files)]:
            if str(a.get("id")) in old:
                out.append(old[str(a["id"])])
                continue
            name = a.get("filename") or ""
            data = files.get(name, b"")
            aid = new_id()
            stored[aid] = data
            out.append({"id": aid, "filename": name, "size": len(data), "content_type": "image/png",
                        "url": f"https://cdn.fake/attachments/{msg['id']}/{aid}/{name}",
                        "proxy_url": f"https://media.fake/attachments/{msg['id']}/{aid}/{name}"})
        msg["attachments"] = out
    names = {a["filename"] for a in msg.get("attachments") or []}
    for e in msg.get("embeds") or []:
        url = (e.get("image") or {}).get("url") or ""
        if url.startswith("attachment://") and url[len("attachment://"):] not in names:
            missing.append((msg["id"], url))


def picture_of(stored: dict[str, bytes], msg: JSON, name: str) -> bytes | None:
    """The bytes of the message's attachment `name` (what its embed's `attachment://name` shows)."""
    found = [a for a in msg.get("attachments") or [] if a["filename"] == name]
    return stored[found[-1]["id"]] if found else None
