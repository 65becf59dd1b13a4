"""The static site's PNG icons (the manifest's 192 and 512 pixels, Apple's touch icon), drawn
from the Red Flower's picture (:func:`kowah.svg.card`) by a small rasteriser, with no imaging
library: the card's shapes (rounded rectangles, ellipses, a circle, a curve) are measured by
their signed distance at each pixel's centre, which also smooths their edges.

>>> data = png(48)
>>> data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", size_of(data)
(True, (48, 48))
"""

from __future__ import annotations

import itertools
import math
import struct
import zlib
from collections.abc import Callable

__all__ = ["png", "size_of"]

Colour = tuple[int, int, int]
#: A shape: its signed distance (pixels, < 0 inside) at a point, and its bounding box.
Distance = Callable[[float, float], float]

FELT: Colour = (0x1F, 0x5A, 0x3E)
CARD: Colour = (0xFB, 0xF5, 0xE6)
INK: Colour = (0x2B, 0x21, 0x18)
PETAL: Colour = (0xC6, 0x28, 0x28)
PETAL_EDGE: Colour = (0x6D, 0x11, 0x11)
HEART: Colour = (0xF2, 0xC9, 0x4C)
STEM: Colour = (0x2F, 0x7D, 0x4A)


class _Canvas:
    """RGBA pixels, drawn on with the "over" operator."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.pixels = [[0.0, 0.0, 0.0, 0.0] for _ in range(size * size)]

    def draw(self, distance: Distance, box: tuple[float, float, float, float], fill: Colour | None,
             stroke: Colour | None = None, width: float = 0.0) -> None:
        left, top = math.floor(box[0] - width - 1), math.floor(box[1] - width - 1)
        right, bottom = math.ceil(box[2] + width + 1), math.ceil(box[3] + width + 1)
        for y in range(max(top, 0), min(bottom, self.size)):
            for x in range(max(left, 0), min(right, self.size)):
                d = distance(x + 0.5, y + 0.5)
                if fill is not None:
                    self._over(x, y, fill, min(max(0.5 - d, 0.0), 1.0))
                if stroke is not None:
                    self._over(x, y, stroke, min(max(width / 2 - abs(d) + 0.5, 0.0), 1.0))

    def _over(self, x: int, y: int, colour: Colour, alpha: float) -> None:
        if alpha <= 0.0:
            return
        pixel = self.pixels[y * self.size + x]
        kept = pixel[3] * (1 - alpha)
        total = alpha + kept
        for channel in range(3):
            pixel[channel] = (colour[channel] * alpha + pixel[channel] * kept) / total
        pixel[3] = total

    def rows(self) -> bytes:
        out = bytearray()
        for y in range(self.size):
            out.append(0)  # the row's filter: none
            for pixel in self.pixels[y * self.size:(y + 1) * self.size]:
                out += bytes((round(pixel[0]), round(pixel[1]), round(pixel[2]), round(pixel[3] * 255)))
        return bytes(out)


def _rounded(x0: float, y0: float, x1: float, y1: float, radius: float) -> Distance:
    cx, cy, hx, hy = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - radius, (y1 - y0) / 2 - radius

    def distance(x: float, y: float) -> float:
        qx, qy = abs(x - cx) - hx, abs(y - cy) - hy
        return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - radius
    return distance


def _ellipse(cx: float, cy: float, rx: float, ry: float, turn: float, px: float, py: float) -> Distance:
    """An ellipse centred on (cx, cy), turned by *turn* degrees about (px, py)."""
    cos, sin = math.cos(math.radians(turn)), math.sin(math.radians(turn))

    def distance(x: float, y: float) -> float:
        # the point turned back, then measured against the upright ellipse
        dx, dy = x - px, y - py
        ux, uy = px + dx * cos + dy * sin - cx, py - dx * sin + dy * cos - cy
        f = math.hypot(ux / rx, uy / ry)
        gradient = math.hypot(ux / (rx * rx), uy / (ry * ry)) / max(f, 1e-9)
        return (f - 1) / max(gradient, 1e-9)
    return distance


def _curve(points: list[tuple[float, float]]) -> Distance:
    def distance(x: float, y: float) -> float:
        best = math.inf
        for (ax, ay), (bx, by) in itertools.pairwise(points):
            vx, vy = bx - ax, by - ay
            t = min(max(((x - ax) * vx + (y - ay) * vy) / (vx * vx + vy * vy), 0.0), 1.0)
            best = min(best, math.hypot(x - ax - t * vx, y - ay - t * vy))
        return best
    return distance


def _picture(size: int, rounded: bool) -> _Canvas:
    """The icon: the Red Flower's card on the table's felt (as the SVG icon shows it)."""
    canvas = _Canvas(size)
    corner = size / 8 if rounded else 0.0
    canvas.draw(_rounded(0, 0, size, size, corner), (0, 0, size, size), FELT)
    scale = size * 0.56 / 60  # the card's picture is 60 x 84 units
    ox, oy = size * 0.22, size * 0.11

    def at(x: float, y: float) -> tuple[float, float]:
        return ox + x * scale, oy + y * scale

    x0, y0 = at(0.75, 0.75)
    x1, y1 = at(59.25, 83.25)
    canvas.draw(_rounded(x0, y0, x1, y1, 5 * scale), (x0, y0, x1, y1), CARD, INK, 1.5 * scale)
    cx, cy = at(30, 31)
    px, py = at(30, 42)
    reach = 21 * scale
    for turn in range(0, 360, 72):
        canvas.draw(_ellipse(cx, cy, 7 * scale, 10 * scale, turn, px, py),
                    (px - reach, py - reach, px + reach, py + reach), PETAL, PETAL_EDGE, 1.1 * scale)
    canvas.draw(_ellipse(px, py, 5 * scale, 5 * scale, 0, px, py),
                (px - 5 * scale, py - 5 * scale, px + 5 * scale, py + 5 * scale), HEART, PETAL_EDGE, scale)
    # the stem, a quadratic curve (M30 58 Q27 66 31 73) as short straight pieces
    stem = [at((1 - t) ** 2 * 30 + 2 * (1 - t) * t * 27 + t * t * 31, (1 - t) ** 2 * 58 + 2 * (1 - t) * t * 66
               + t * t * 73) for t in (step / 12 for step in range(13))]
    xs, ys = [x for x, _ in stem], [y for _, y in stem]
    canvas.draw(_curve(stem), (min(xs), min(ys), max(xs), max(ys)), None, STEM, 2 * scale)
    return canvas


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(size: int, *, rounded: bool = True) -> bytes:
    """The icon as a *size* x *size* RGBA PNG; *rounded* corners (else square and opaque, as
    Apple's touch icon wants: the system rounds it)."""
    canvas = _picture(size, rounded)
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(canvas.rows(), 9)) + _chunk(b"IEND", b""))


def size_of(data: bytes) -> tuple[int, int]:
    """The width and height a PNG's header gives."""
    width, height = struct.unpack(">II", data[16:24])
    return width, height
