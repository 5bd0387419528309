"""Badges drawn pixel by pixel with a 3x5 font and written as PNG with zlib and struct only."""

import re
import struct
import zlib

GLYPHS_ROWS = {
    "A": ".#. #.# ### #.# #.#", "B": "##. #.# ##. #.# ##.", "C": ".## #.. #.. #.. .##",
    "D": "##. #.# #.# #.# ##.", "E": "### #.. ##. #.. ###", "F": "### #.. ##. #.. #..",
    "G": ".## #.. #.# #.# .##", "H": "#.# #.# ### #.# #.#", "I": "### .#. .#. .#. ###",
    "J": "..# ..# ..# #.# .#.", "K": "#.# #.# ##. #.# #.#", "L": "#.. #.. #.. #.. ###",
    "M": "#.# ### ### #.# #.#", "N": "##. #.# #.# #.# #.#", "O": ".#. #.# #.# #.# .#.",
    "P": "##. #.# ##. #.. #..", "Q": ".#. #.# #.# ##. .##", "R": "##. #.# ##. #.# #.#",
    "S": ".## #.. .#. ..# ##.", "T": "### .#. .#. .#. .#.", "U": "#.# #.# #.# #.# ###",
    "V": "#.# #.# #.# #.# .#.", "W": "#.# #.# ### ### #.#", "X": "#.# #.# .#. #.# #.#",
    "Y": "#.# #.# .#. .#. .#.", "Z": "### ..# .#. #.. ###", "0": "### #.# #.# #.# ###",
    "1": ".#. ##. .#. .#. ###", "2": "##. ..# .#. #.. ###", "3": "##. ..# .#. ..# ##.",
    "4": "#.# #.# ### ..# ..#", "5": "### #.. ##. ..# ##.", "6": ".## #.. ### #.# ###",
    "7": "### ..# .#. .#. .#.", "8": "### #.# ### #.# ###", "9": "### #.# ### ..# ##.",
    " ": "... ... ... ... ...", ".": "... ... ... ... .#.", "-": "... ... ### ... ...",
    "%": "#.. ..# .#. #.. ..#", ":": "... .#. ... .#. ...", "/": "..# ..# .#. #.. #..",
    "+": "... .#. ### .#. ...", "?": "##. ..# .#. ... .#.",
}
# Each glyph as 15 characters, row by row.
GLYPHS = {ch: rows.replace(" ", "") for ch, rows in GLYPHS_ROWS.items()}

COLOURS = {
    "green": (46, 160, 67),
    "blue": (28, 126, 214),
    "orange": (240, 140, 0),
    "red": (224, 49, 49),
    "grey": (134, 142, 150),
}
LABEL_COLOUR = (73, 80, 87)
TEXT_COLOUR = (255, 255, 255)
SCALE = 3
PAD = 2
MAX_CHARACTERS = 40


def normalise(text: str) -> str:
    """Upper case, known glyphs only (others become '?'), bounded length."""
    text = re.sub(r"\s+", " ", text.strip().upper())[:MAX_CHARACTERS]
    return "".join(ch if ch in GLYPHS else "?" for ch in text)


def _text_width(text: str) -> int:
    return max(len(text) * 4 - 1, 0)


def draw(label: str, value: str, colour: str) -> tuple[int, int, list[list[tuple[int, int, int]]]]:
    """Rows of RGB pixels at font scale: grey label part, coloured value part, white text."""
    if colour not in COLOURS:
        raise ValueError(f"Unknown colour {colour!r}; choose one of {', '.join(COLOURS)}.")
    left = _text_width(label) + 2 * PAD
    right = _text_width(value) + 2 * PAD
    width, height = left + right, 5 + 2 * PAD
    rows = [[LABEL_COLOUR if x < left else COLOURS[colour] for x in range(width)] for _ in range(height)]
    for origin, text in ((PAD, label), (left + PAD, value)):
        for index, ch in enumerate(text):
            bits = GLYPHS[ch]
            for bit in range(15):
                if bits[bit] == "#":
                    rows[PAD + bit // 3][origin + index * 4 + bit % 3] = TEXT_COLOUR
    return width, height, rows


def png(width: int, height: int, rows: list[list[tuple[int, int, int]]], scale: int = SCALE) -> bytes:
    """An 8-bit RGB PNG of the rows, each pixel drawn as a scale x scale square."""
    raw = bytearray()
    for row in rows:
        line = b"".join(bytes(pixel) * scale for pixel in row)
        for _ in range(scale):
            raw += b"\x00" + line

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width * scale, height * scale, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")


def badge_png(label: str, value: str, colour: str) -> tuple[str, bytes, int, int]:
    """File name, PNG bytes, width and height in pixels of a badge."""
    label, value = normalise(label), normalise(value)
    if not label or not value:
        raise ValueError("Both label and value need at least one character.")
    width, height, rows = draw(label, value, colour)
    slug = re.sub(r"[^a-z0-9]+", "-", f"{label} {value}".lower()).strip("-") or "badge"
    return f"badge-{slug}.png", png(width, height, rows), width * SCALE, height * SCALE
