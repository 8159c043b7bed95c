"""The layout model of a picture and its painting to PNG.

A game module describes a picture as a `Sheet`: lines of text, rows of pieces, and blocks (a meld
with its number and caption) that flow left to right and wrap. The sheet keeps every placed item,
so tests can read what the picture holds (every piece's label, every meld number) without looking
at pixels; `png()` paints the items and encodes them.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from PIL import Image, ImageDraw

from bot.core.pictures.pieces import Piece, card, font, sprite, tile

WIDTH = 1000  # wide enough for 5-6 melds a row; chat clients scale a photo down, not up
PAD = 14
GAP = 2  # between pieces of one meld
GROUP_GAP = 10  # between groups of a rack (colours, numbers)
BLOCK_GAP = 12
LINE = 22  # a text line's height
TEXT_SIZE = 15
CAPTION_SIZE = 13

BACKGROUND = (222, 234, 224)  # felt green, light enough for dark text
INK = (30, 32, 36)
MUTED = (85, 90, 95)
BLOCK_FACE = (242, 246, 242)
Tone = Literal["plain", "ok", "bad", "canasta", "close", "turn"]
TONE_EDGE = {
    "plain": (190, 200, 192), "ok": (40, 150, 70), "bad": (205, 45, 45), "canasta": (215, 160, 10),
    "close": (230, 120, 20), "turn": (40, 110, 200),
}


@cache
def palette() -> Image.Image:
    """The palette of every picture: 128 colours chosen once from a swatch of everything a picture
    draws (each tile and card, text of every ink on each face, every block edge), so anti-aliased
    edges keep their in-between shades."""
    codes = [f"{c}{n}" for c in "rbky" for n in range(1, 14)] + ["j"]
    cards = [f"{r}{s}" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "SHDC"]
    pieces = [tile(c) for c in codes] + [tile("j", "r7")] + [card(c) for c in cards]
    pieces += [card("JK", "7C"), card("3S", wild=True)]
    swatch = Image.new("RGB", (40 * 20, 50 * 8 + 60 * len(TONE_EDGE)), BACKGROUND)
    draw = ImageDraw.Draw(swatch)
    for i, piece in enumerate(pieces):
        sp = sprite(piece)
        swatch.paste(sp, (40 * (i % 20), 50 * (i // 20)), sp)
    for j, (tone, edge) in enumerate(TONE_EDGE.items()):
        y = 50 * 8 + 60 * j
        draw.rounded_rectangle((0, y, 300, y + 50), 6, fill=BLOCK_FACE, outline=edge, width=3)
        for k, ink in enumerate((INK, MUTED)):
            draw.text((10, y + 5 + 20 * k), f"{tone} 12 Ааб ▶ ✓ ✗ ★", font=font(CAPTION_SIZE, k == 0), fill=ink)
            draw.text((320, y + 5 + 20 * k), f"{tone} 12 Ааб ▶ ✓ ✗ ★", font=font(TEXT_SIZE, k == 0), fill=ink)
    return swatch.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


@dataclass(frozen=True)
class Text:
    x: int
    y: int
    text: str
    bold: bool = False
    size: int = TEXT_SIZE
    fill: tuple[int, int, int] = INK


@dataclass(frozen=True)
class Placed:
    x: int
    y: int
    piece: Piece


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    w: int
    h: int
    tone: Tone


@dataclass(frozen=True)
class Block:
    """A meld (or a market card) with its caption: `ref` is the number commands use (`3`, `S2`,
    `A:8s`, `#4`), drawn bold first; `caption` lines follow (kind and value, markers, owners)."""

    ref: str
    pieces: Sequence[Piece]
    caption: Sequence[str] = ()
    tone: Tone = "plain"


@dataclass
class Sheet:
    width: int = WIDTH
    texts: list[Text] = field(default_factory=list)
    placed: list[Placed] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)  # block refs in drawing order (what the tests read)
    y: int = PAD
    right: int = 0  # the widest extent drawn, so the image is no wider than its content

    # ---- building ------------------------------------------------------------------------------

    def text(self, line: str, bold: bool = False, muted: bool = False, size: int = TEXT_SIZE) -> None:
        """Text lines (a catalog sentence may hold several, separated by newlines)."""
        for part in line.split("\n"):
            self._text(PAD, self.y, part.rstrip(), bold, size, MUTED if muted else INK)
            self.y += LINE if size >= TEXT_SIZE else LINE - 4

    def gap(self, height: int = 8) -> None:
        self.y += height

    def pieces(self, groups: Sequence[Sequence[Piece]], label: str = "") -> None:
        """One row of pieces (wrapping), groups set apart; an optional label before them."""
        x = PAD
        if label:
            self._text(x, self.y + 12, label, False, TEXT_SIZE, INK)
            x += int(font(TEXT_SIZE).getlength(label)) + 8
        start, tallest = x, 0
        for group in groups:
            width = sum(p.size[0] + GAP for p in group)
            if x > start and x + width > self.width - PAD:
                x, self.y = start, self.y + tallest + 6
            for piece in group:
                self._place(x, self.y, piece)
                x += piece.size[0] + GAP
                tallest = max(tallest, piece.size[1])
            x += GROUP_GAP
        self.y += tallest + 8

    def blocks(self, blocks: Sequence[Block]) -> None:
        """Melds side by side, wrapping to the next row when the width is used up."""
        x, row_h = PAD, 0
        for block in blocks:
            w, h = self._block_size(block)
            if x > PAD and x + w > self.width - PAD:
                x, self.y, row_h = PAD, self.y + row_h + BLOCK_GAP, 0
            self._block(x, self.y, w, h, block)
            x += w + BLOCK_GAP
            row_h = max(row_h, h)
        if blocks:
            self.y += row_h + BLOCK_GAP

    # ---- measuring and placing -----------------------------------------------------------------

    def _caption_lines(self, block: Block) -> list[tuple[str, bool]]:
        first = f"{block.ref}  {block.caption[0]}" if block.caption else block.ref
        return [(first, True)] + [(c, False) for c in block.caption[1:]]

    def _block_size(self, block: Block) -> tuple[int, int]:
        lines = self._caption_lines(block)
        text_w = max(int(font(CAPTION_SIZE, bold).getlength(s)) for s, bold in lines)
        row_w = sum(p.size[0] + GAP for p in block.pieces) - GAP
        row_h = max((p.size[1] for p in block.pieces), default=0)
        return max(text_w, row_w) + 12, 6 + len(lines) * 17 + row_h + 6

    def _block(self, x: int, y: int, w: int, h: int, block: Block) -> None:
        self.boxes.append(Box(x, y, w, h, block.tone))
        self.refs.append(block.ref)
        ty = y + 5
        for line, bold in self._caption_lines(block):
            self._text(x + 6, ty, line, bold, CAPTION_SIZE, INK if bold else MUTED)
            ty += 17
        px = x + 6
        for piece in block.pieces:
            self._place(px, ty + 1, piece)
            px += piece.size[0] + GAP
        self.right = max(self.right, x + w)

    def _text(self, x: int, y: int, text: str, bold: bool, size: int, fill: tuple[int, int, int]) -> None:
        self.texts.append(Text(x, y, text, bold, size, fill))
        self.right = max(self.right, x + int(font(size, bold).getlength(text)))

    def _place(self, x: int, y: int, piece: Piece) -> None:
        self.placed.append(Placed(x, y, piece))
        self.right = max(self.right, x + piece.size[0])

    # ---- output --------------------------------------------------------------------------------

    def image(self) -> Image.Image:
        width = min(self.width, max(self.right + PAD, 320))
        img = Image.new("RGB", (width, self.y + PAD - 8), BACKGROUND)
        draw = ImageDraw.Draw(img)
        for box in self.boxes:
            draw.rounded_rectangle((box.x, box.y, box.x + box.w, box.y + box.h), 6, fill=BLOCK_FACE,
                                   outline=TONE_EDGE[box.tone], width=1 if box.tone == "plain" else 3)
        for item in self.texts:
            draw.text((item.x, item.y), item.text, font=font(item.size, item.bold), fill=item.fill)
        for p in self.placed:
            sp = sprite(p.piece)
            img.paste(sp, (p.x, p.y), sp)
        return img

    def png(self) -> bytes:
        """PNG in one fixed palette (`palette()`): mapping to a known palette costs well under a
        millisecond where finding one per picture costs ten or more, and zlib level 3 is within a
        few kB of level 9 at a tenth of the time (bench/bench_pictures.py)."""
        img = self.image().quantize(palette=palette(), dither=Image.Dither.NONE)
        out = io.BytesIO()
        img.save(out, format="PNG", compress_level=3)
        return out.getvalue()

    def labels(self) -> list[tuple[str, tuple[str, ...]]]:
        """Every placed piece's code with the strings drawn on it (the readability tests read these)."""
        return [(p.piece.code, p.piece.labels()) for p in self.placed]
