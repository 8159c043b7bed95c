"""Tiles and cards as small pictures (sprites), drawn once per look and pasted wherever they go.

Every piece carries its letter or suit symbol as well as its colour (UX.md: readable without
colour): a tile shows its number large in its colour and the colour letter in a corner, a joker a
face and `J`; a card shows its rank and suit symbol in red or black, a joker `JK` and a star.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from io import BytesIO
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

Kind = Literal["tile", "card"]

TILE_W, TILE_H = 32, 44
CARD_W, CARD_H = 34, 46
RADIUS = 5

# Rummikub's orange is "y" in the notation; a darker orange than the tiles' keeps it readable on cream.
TILE_INK = {"r": (200, 30, 35), "b": (25, 85, 200), "k": (25, 25, 30), "y": (215, 120, 0)}
JOKER_INK = (150, 40, 160)
RED, BLACK = (200, 30, 35), (25, 25, 30)
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
TILE_FACE, TILE_EDGE = (252, 247, 232), (160, 150, 128)
CARD_FACE, CARD_EDGE = (255, 255, 255), (150, 150, 150)
WILD_EDGE = (220, 160, 0)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans shipped in the package (fonts/README.md): Cyrillic and the suit symbols included."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("bot.core.pictures").joinpath("fonts", name).read_bytes()
    return ImageFont.truetype(BytesIO(data), size, layout_engine=ImageFont.Layout.BASIC)


@dataclass(frozen=True)
class Piece:
    """One tile or card as drawn: `code` in the game's notation (`r5`, `j`, `10H`, `JK`); `note` is
    what a joker stands for on the table (`r7`, `7C`); `wild` marks a wild card (Three-Thirteen)."""

    code: str
    kind: Kind
    note: str | None = None
    wild: bool = False

    def labels(self) -> tuple[str, ...]:
        """The strings drawn on the piece, the identifying letter or suit symbol among them."""
        if self.kind == "tile":
            face = ("☺", "J") if self.code == "j" else (self.code[1:], self.code[0])
        elif self.code == "JK":
            face = ("JK", "★")
        else:
            face = (self.code[:-1], SUIT_SYMBOL[self.code[-1]])
        return (*face, self.note) if self.note else face

    @property
    def size(self) -> tuple[int, int]:
        return (TILE_W, TILE_H) if self.kind == "tile" else (CARD_W, CARD_H)


def tile(code: str, note: str | None = None) -> Piece:
    return Piece(code, "tile", note)


def card(code: str, note: str | None = None, wild: bool = False) -> Piece:
    return Piece(code, "card", note, wild)


def _ink(piece: Piece) -> tuple[int, int, int]:
    if piece.code in ("j", "JK"):
        return JOKER_INK
    if piece.kind == "tile":
        return TILE_INK[piece.code[0]]
    return RED if piece.code[-1] in RED_SUITS else BLACK


@cache
def sprite(piece: Piece) -> Image.Image:
    """The piece as an RGBA image (transparent outside the rounded corners). Cached: a table holds
    many copies of few pieces, and pasting is far cheaper than drawing text."""
    w, h = piece.size
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    tile_like = piece.kind == "tile"
    face, edge = (TILE_FACE, TILE_EDGE) if tile_like else (CARD_FACE, CARD_EDGE)
    if piece.wild:
        edge = WILD_EDGE
    draw.rounded_rectangle((0, 0, w - 1, h - 1), RADIUS, fill=face, outline=edge, width=2 if piece.wild else 1)
    ink = _ink(piece)
    big, small, *note = piece.labels()
    if tile_like:
        draw.text((w / 2, 17), big, font=font(19 if len(big) < 2 else 17, bold=True), fill=ink, anchor="mm")
        corner = ((w - 3, 2), "rt") if note else ((w - 4, h - 3), "rd")  # the note's band takes the foot
        draw.text(corner[0], small, font=font(10, bold=True), fill=ink, anchor=corner[1])
    else:
        draw.text((4, 3), big, font=font(13 if len(big) < 2 else 12, bold=True), fill=ink, anchor="lt")
        draw.text((w / 2 + 3, 24 if note else 30), small, font=font(19), fill=ink, anchor="mm")
    if note:
        # What a joker stands for: a small dark band at the foot, so it reads on any face colour.
        draw.rectangle((2, h - 13, w - 3, h - 3), fill=(60, 60, 70))
        draw.text((w / 2, h - 8), note[0], font=font(9, bold=True), fill=(255, 255, 255), anchor="mm")
    return img
