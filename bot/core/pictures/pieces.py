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

# A number's ink is 17 px high (12.75 px shown 360 of 480 wide), every mark 15 px: sheet.py's sizes.
TILE_W, TILE_H = 38, 48
CARD_W, CARD_H = 40, 56
RADIUS = 5
NUMBER_SIZE = 23  # bold: DejaVu's digits are 0.73 em high
MARK_SIZE = 15  # the colour letter, a joker's note
SUIT_SIZE = 20
BAND_H = 17  # a joker's note band

# Rummikub's orange is "y" in the notation; a darker orange than the tiles' keeps it readable on cream.
TILE_INK = {"r": (200, 30, 35), "b": (25, 85, 200), "k": (25, 25, 30), "y": (215, 120, 0)}
JOKER_INK = (150, 40, 160)
RED, BLACK = (200, 30, 35), (25, 25, 30)
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
TILE_FACE, TILE_EDGE = (252, 247, 232), (160, 150, 128)
CARD_FACE, CARD_EDGE = (255, 255, 255), (150, 150, 150)
WILD_EDGE = (220, 160, 0)
NOTE_BAND, NOTE_INK = (60, 60, 70), (255, 255, 255)


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


@dataclass(frozen=True)
class Face:
    """One string drawn on a piece: where (anchor point and Pillow anchor), in which font, and
    whether it is the piece's number (rank) or a mark beside it (colour letter, suit, a joker's
    note). The sprite is painted from these, and the legibility measure reads the same list."""

    text: str
    at: tuple[float, float]
    anchor: str
    size: int
    bold: bool
    fill: tuple[int, int, int]
    number: bool = False


def faces(piece: Piece) -> list[Face]:
    w, h = piece.size
    ink = _ink(piece)
    big, small, *note = piece.labels()
    out: list[Face]
    if piece.kind == "tile":
        corner = ((w - 2, 1), "rt") if note else ((w - 4, h - 2), "rd")  # the note's band takes the foot
        centre = (w / 2 - 4, 17) if note else (w / 2, 18)  # beside the corner letter, not under it
        out = [Face(big, centre, "mm", NUMBER_SIZE, True, ink, number=big.isdigit()),
               Face(small, corner[0], corner[1], MARK_SIZE, True, ink)]
    else:
        out = [Face(big, (3, 3), "lt", NUMBER_SIZE, True, ink, number=piece.code != "JK"),
               Face(small, (w / 2 + 2, 30 if note else 40), "mm", MARK_SIZE if note else SUIT_SIZE, False, ink)]
    if note:
        out.append(Face(note[0], (w / 2, h - 2 - BAND_H / 2), "mm", MARK_SIZE, True, NOTE_INK))
    return out


@cache
def sprite(piece: Piece) -> Image.Image:
    """The piece as an RGBA image (transparent outside the rounded corners). Cached: a table holds
    many copies of few pieces, and pasting is far cheaper than drawing text."""
    w, h = piece.size
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    face, edge = (TILE_FACE, TILE_EDGE) if piece.kind == "tile" else (CARD_FACE, CARD_EDGE)
    if piece.wild:
        edge = WILD_EDGE
    draw.rounded_rectangle((0, 0, w - 1, h - 1), RADIUS, fill=face, outline=edge, width=2 if piece.wild else 1)
    if piece.note:
        # What a joker stands for: a small dark band at the foot, so it reads on any face colour.
        draw.rectangle((2, h - 2 - BAND_H, w - 3, h - 3), fill=NOTE_BAND)
    for f in faces(piece):
        draw.text(f.at, f.text, font=font(f.size, f.bold), fill=f.fill, anchor=f.anchor)
    return img
