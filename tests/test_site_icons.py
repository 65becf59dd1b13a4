"""The static site's PNG icons (kowah.site.icons): valid PNG files of the stated sizes, drawn
from the Red Flower's picture on the felt. Read back by a small PNG reader here, which checks
every chunk's CRC and the pixel data's length, so a broken writer fails."""

from __future__ import annotations

import struct
import zlib

import pytest

from kowah.site.icons import FELT, HEART, PETAL, png, size_of


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGBA bytes) of an 8-bit RGBA PNG without filters, checked."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, []
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert zlib.crc32(kind + body) == crc, kind
        chunks.append((kind, body))
        at += 12 + length
    assert chunks[0][0] == b"IHDR" and chunks[-1] == (b"IEND", b"")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][1])
    assert (depth, colour, interlace) == (8, 6, 0)
    raw = zlib.decompress(b"".join(body for kind, body in chunks if kind == b"IDAT"))
    assert len(raw) == height * (1 + 4 * width)
    rows = [raw[y * (1 + 4 * width):(y + 1) * (1 + 4 * width)] for y in range(height)]
    assert all(row[0] == 0 for row in rows)
    return width, height, [row[1:] for row in rows]


def pixel(rows: list[bytes], x: int, y: int) -> tuple[int, ...]:
    return tuple(rows[y][4 * x:4 * x + 4])


def near(found: tuple[int, ...], colour: tuple[int, int, int]) -> bool:
    return found[3] == 255 and all(abs(a - b) <= 8 for a, b in zip(found, colour, strict=False))


@pytest.mark.parametrize("size", [64, 192])
def test_an_icon_is_a_valid_png_of_its_size_showing_the_red_flower_on_the_felt(size: int) -> None:
    data = png(size)
    width, height, rows = read_png(data)
    assert (width, height) == size_of(data) == (size, size)
    assert pixel(rows, 0, 0)[3] == 0  # a rounded corner: transparent
    assert near(pixel(rows, size // 2, 2), FELT)  # the felt above the card
    # the flower's heart at (30, 42) of the card's 60 x 84, the card at 22 %, 11 % of the icon
    heart = (round(size * 0.22 + 30 * size * 0.56 / 60), round(size * 0.11 + 42 * size * 0.56 / 60))
    assert near(pixel(rows, *heart), HEART)
    reds = sum(near(pixel(rows, x, y), PETAL) for y in range(size) for x in range(size))
    assert 0.03 < reds / size**2 < 0.2  # the petals


def test_apples_icon_is_square_and_opaque() -> None:
    _, _, rows = read_png(png(60, rounded=False))
    assert all(row[3::4] == b"\xff" * 60 for row in rows)
    assert near(pixel(rows, 0, 0), FELT)
