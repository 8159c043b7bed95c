"""Cutting a Markdown guide into messages that fit a platform's limit (Telegram 4096, Discord 2000).

Cuts fall on section boundaries (`## ` headings) where they can, else between paragraphs, else
between lines; never inside a fenced code block unless the block alone is too long. The limit
applies to the rendered text (Telegram's HTML is longer than the Markdown it comes from), so the
caller passes its renderer.
"""

from __future__ import annotations

from collections.abc import Callable

Render = Callable[[str], str]


def _identity(text: str) -> str:
    return text


def sections(text: str) -> list[str]:
    """The guide's title block and each `## ` section, as written."""
    parts: list[str] = []
    current: list[str] = []
    fenced = False
    for line in text.strip("\n").split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        if line.startswith("## ") and not fenced and current:
            parts.append("\n".join(current).strip("\n"))
            current = []
        current.append(line)
    if current:
        parts.append("\n".join(current).strip("\n"))
    return parts


def _blocks(section: str) -> list[str]:
    """Paragraphs (blank-line separated), a fenced block kept whole with its blank lines."""
    blocks: list[str] = []
    current: list[str] = []
    fenced = False
    for line in section.split("\n"):
        if line.startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


def _pack(pieces: list[str], sep: str, limit: int, render: Render) -> list[str]:
    """Greedily join pieces with sep while the rendered join fits; a piece too long alone is cut finer."""
    out: list[str] = []
    current = ""
    for piece in pieces:
        joined = f"{current}{sep}{piece}" if current else piece
        if len(render(joined)) <= limit:
            current = joined
            continue
        if len(render(piece)) <= limit:
            if current:
                out.append(current)
            current = piece
            continue
        finer = _finer(piece, limit, render)
        head = f"{current}{sep}{finer[0]}" if current else finer[0]
        if len(render(head)) <= limit:  # the start of a long piece may still share the current message
            finer[0] = head
        elif current:
            out.append(current)
        out.extend(finer[:-1])
        current = finer[-1]
    if current:
        out.append(current)
    return out


def _finer(piece: str, limit: int, render: Render) -> list[str]:
    blocks = _blocks(piece)
    if len(blocks) > 1:
        return _pack(blocks, "\n\n", limit, render)
    lines = piece.split("\n")
    if len(lines) > 1:  # a paragraph or a fenced block longer than a message: cut between its lines
        return _pack(lines, "\n", limit, render)
    words = piece.split(" ")
    if len(words) > 1:
        return _pack(words, " ", limit, render)
    return [piece[i:i + limit] for i in range(0, len(piece), limit)]


def guide_chunks(text: str, limit: int, render: Render = _identity) -> list[str]:
    """The guide as Markdown pieces, each of which renders to at most `limit` characters."""
    return _pack(sections(text), "\n\n", limit, render)
