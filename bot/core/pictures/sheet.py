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

from bot.core.pictures.pieces import Piece, card, faces, font, sprite, tile

# Sized for a phone's chat bubble (about 330-360 px wide): every number and text comes out at least
# 12 and 11 px high there (`Sheet.legibility`, tests/bot/pictures/test_legible.py), so a row holds
# ten or eleven tiles and melds wrap several to a row instead of one wide picture.
WIDTH = 480
PAD = 10
GAP = 2  # between pieces of one meld
GROUP_GAP = 8  # between groups of a rack (colours, numbers)
ROW_GAP = 4  # between wrapped rows of pieces
BLOCK_GAP = 8
TEXT_SIZE = 15  # the one text size: 11 px at 360 of 480 (captions and notes too)
LINE = 20  # a text line's height
CAPTION_LINE = 18  # a block caption line's height
INDENT = 16  # a wrapped line's continuation
DISPLAY = 360  # px: a phone's chat bubble, the width the legibility goals are stated at

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
            draw.text((10, y + 5 + 20 * k), f"{tone} 12 Ааб ▶ ✓ ✗ ★", font=font(TEXT_SIZE, k == 0), fill=ink)
            draw.text((320, y + 5 + 20 * k), f"{tone} 12 Ааб ▶ ✓ ✗ ★", font=font(TEXT_SIZE, k == 0), fill=ink)
    return swatch.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


@dataclass(frozen=True)
class Legibility:
    """The smallest tile/card number height and text height of a picture, in px at a display width."""

    number: float
    text: float


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

    def text(self, line: str, bold: bool = False, muted: bool = False) -> None:
        """Text lines (a catalog sentence may hold several, separated by newlines), each wrapped at
        spaces to the width, its continuation indented."""
        for part in line.split("\n"):
            for n, piece in enumerate(self.wrap(part.rstrip(), bold, self.width - 2 * PAD, INDENT)):
                x = PAD + (INDENT if n else 0)
                self._text(x, self.y, piece, bold, MUTED if muted else INK)
                self.y += LINE

    def gap(self, height: int = 6) -> None:
        self.y += height

    def pieces(self, groups: Sequence[Sequence[Piece]], label: str = "") -> None:
        """Pieces in rows that wrap, groups set apart and kept whole where a row can hold them; an
        optional label before them (above them when it leaves no room for the first group)."""
        groups = [g for g in groups if g]
        if not groups:
            return
        x = PAD
        first_h = max(p.size[1] for p in groups[0])
        if label:
            lw = int(font(TEXT_SIZE).getlength(label))
            if PAD + lw + 8 + _row_width(groups[0][:3]) <= self.width - PAD:
                self._text(PAD, self.y + (first_h - LINE) // 2 + 2, label, False, INK)
                x += lw + 8
            else:
                self.text(label)
        tallest = 0
        for group in groups:
            if x > PAD and x + _row_width(group) > self.width - PAD and _row_width(group) <= self.width - 2 * PAD:
                x, self.y, tallest = PAD, self.y + tallest + ROW_GAP, 0  # the group fits whole on a row of its own
            for piece in group:
                if x > PAD and x + piece.size[0] > self.width - PAD:
                    x, self.y, tallest = PAD, self.y + tallest + ROW_GAP, 0
                self._place(x, self.y, piece)
                x += piece.size[0] + GAP
                tallest = max(tallest, piece.size[1])
            x += GROUP_GAP - GAP
        self.y += tallest + 6

    def blocks(self, blocks: Sequence[Block]) -> None:
        """Melds side by side, several to a row, wrapping to the next row when the width is used up;
        a meld longer than a row wraps inside its box."""
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

    @staticmethod
    def wrap(text: str, bold: bool, width: int, indent: int = 0) -> list[str]:
        """`text` cut at spaces into lines no wider than `width` (continuation lines `indent` less,
        leading spaces kept on the first); a word wider than a line is cut where it must."""
        measure = font(TEXT_SIZE, bold).getlength
        stripped = text.lstrip(" ")
        words: list[str] = []
        for word in stripped.split(" "):
            while measure(word) > width - indent and len(word) > 1:
                cut = max(i for i in range(1, len(word)) if i == 1 or measure(word[:i]) <= width - indent)
                words.append(word[:cut])
                word = word[cut:]
            words.append(word)
        lines = [text[: len(text) - len(stripped)] + words[0]]
        for word in words[1:]:
            if measure(f"{lines[-1]} {word}") <= width - (indent if len(lines) > 1 else 0):
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        return lines

    def _inner(self) -> int:
        return self.width - 2 * PAD - 12

    def _caption_lines(self, block: Block) -> list[tuple[str, bool]]:
        first = f"{block.ref}  {block.caption[0]}" if block.caption else block.ref
        rest = list(block.caption[1:])
        # A marker or an owner goes on the first line when the line stays within the meld's width:
        # a row of melds is a caption line shorter.
        room = max(_row_width(row) for row in self._piece_rows(block.pieces))
        while rest and font(TEXT_SIZE, True).getlength(f"{first} · {rest[0]}") <= room:
            first = f"{first} · {rest.pop(0)}"
        out = [(s, True) for s in self.wrap(first, True, self._inner(), INDENT)]
        for c in rest:
            out += [(s, False) for s in self.wrap(c, False, self._inner(), INDENT)]
        return out

    def _piece_rows(self, pieces: Sequence[Piece]) -> list[list[Piece]]:
        rows: list[list[Piece]] = [[]]
        for piece in pieces:
            if rows[-1] and _row_width([*rows[-1], piece]) > self._inner():
                rows.append([])
            rows[-1].append(piece)
        return rows

    def _block_size(self, block: Block) -> tuple[int, int]:
        lines = self._caption_lines(block)
        text_w = max(int(font(TEXT_SIZE, bold).getlength(s)) + (INDENT if n else 0)
                     for n, (s, bold) in enumerate(lines))
        rows = self._piece_rows(block.pieces)
        row_w = max(_row_width(r) for r in rows)
        rows_h = sum(max((p.size[1] for p in r), default=0) + GAP for r in rows) - GAP
        return max(text_w, row_w) + 12, 5 + len(lines) * CAPTION_LINE + rows_h + 6

    def _block(self, x: int, y: int, w: int, h: int, block: Block) -> None:
        self.boxes.append(Box(x, y, w, h, block.tone))
        self.refs.append(block.ref)
        ty = y + 4
        for n, (line, bold) in enumerate(self._caption_lines(block)):
            self._text(x + 6 + (INDENT if n and bold else 0), ty, line, bold, INK if bold else MUTED)
            ty += CAPTION_LINE
        for row in self._piece_rows(block.pieces):
            px = x + 6
            for piece in row:
                self._place(px, ty + 1, piece)
                px += piece.size[0] + GAP
            ty += max((p.size[1] for p in row), default=0) + GAP
        self.right = max(self.right, x + w)

    def _text(self, x: int, y: int, text: str, bold: bool, fill: tuple[int, int, int]) -> None:
        self.texts.append(Text(x, y, text, bold, TEXT_SIZE, fill))
        self.right = max(self.right, x + int(font(TEXT_SIZE, bold).getlength(text)))

    def _place(self, x: int, y: int, piece: Piece) -> None:
        self.placed.append(Placed(x, y, piece))
        self.right = max(self.right, x + piece.size[0])

    # ---- output --------------------------------------------------------------------------------

    def canvas(self) -> tuple[int, int]:
        """The image's size: no wider than its content (a narrow picture shows larger in a chat)."""
        return min(self.width, max(self.right + PAD, 320)), self.y + PAD - 8

    def legibility(self, display: int = DISPLAY) -> Legibility:
        """How large the smallest number and the smallest text come out when the picture is shown
        `display` px wide (a chat bubble on a phone): drawn height × display / canvas width. A
        number is measured by its ink (the glyphs' bounding box, as drawn on its piece); a text by
        its font size, the way a page's text size is stated."""
        scale = display / self.canvas()[0]
        numbers, texts = [], [item.size for item in self.texts]
        for p in self.placed:
            for f in faces(p.piece):
                if f.number:
                    left, top, right, bottom = font(f.size, f.bold).getbbox(f.text, anchor=f.anchor)
                    numbers.append(bottom - top)
                else:
                    texts.append(f.size)
        return Legibility(min(numbers, default=0) * scale if numbers else float("inf"),
                          min(texts) * scale if texts else float("inf"))

    def overflows(self) -> list[str]:
        """What is drawn past the canvas, or past the box it sits in (a meld's caption wider than its
        meld box): each as a sentence naming the item, empty when everything fits. Measured by ink
        (the glyphs' bounding box), so a longer translation that the wrapping missed shows here."""
        width, height = self.canvas()
        out = []
        for item in self.texts:
            left, top, right, bottom = font(item.size, item.bold).getbbox(item.text)
            inside = next((b for b in self.boxes if b.x <= item.x < b.x + b.w and b.y <= item.y < b.y + b.h), None)
            if item.x + right > width or item.y + bottom > height:
                out.append(f"text {item.text!r} ends at ({item.x + right}, {item.y + bottom}), past the canvas {width}×{height}")
            elif inside is not None and item.x + right > inside.x + inside.w:
                out.append(f"text {item.text!r} ends at x {item.x + right}, past its box's edge at {inside.x + inside.w}")
        for box in self.boxes:
            if box.x + box.w > width or box.y + box.h > height:
                out.append(f"a box {box} past the canvas {width}×{height}")
        for p in self.placed:
            if p.x + p.piece.size[0] > width or p.y + p.piece.size[1] > height:
                out.append(f"piece {p.piece.code} at ({p.x}, {p.y}) past the canvas {width}×{height}")
        return out

    def image(self) -> Image.Image:
        width, height = self.canvas()
        img = Image.new("RGB", (width, height), BACKGROUND)
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


def _row_width(pieces: Sequence[Piece]) -> int:
    return sum(p.size[0] + GAP for p in pieces) - GAP if pieces else 0
