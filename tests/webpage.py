"""What the browser tests share: Chromium, the table on uvicorn, opening games with a chosen
deck, reading the page, and measuring pixels (a small PNG reader, WCAG's contrast ratio).

Chromium is Debian's ``chromium`` package (browsers cannot be downloaded here), launched with
``executable_path``; ``KOWAH_CHROMIUM`` names another binary. Without Chromium or Playwright
the browser tests are skipped with one reason, unless ``KOWAH_BROWSER_TESTS=required`` (as in
CI, ``.ci/run``), which makes them fail instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import struct
import threading
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kowah.i18n import LANGUAGES

__all__ = ["ARGS", "LANGUAGES", "PATIENCE", "ROOT", "SHOTS", "chromium_path", "contrast", "read_png", "serve",
           "skip_without_browser"]

ROOT = Path(__file__).resolve().parent.parent
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--mute-audio"]
REQUIRED = os.environ.get("KOWAH_BROWSER_TESTS", "").lower() == "required"
HOW = ("install Chromium (apt-get install chromium) and Playwright (pip install playwright), "
       "or set KOWAH_CHROMIUM=/path/to/chromium")
SHOTS = Path(os.environ.get("KOWAH_SCREENSHOTS", ROOT / "build" / "screenshots"))
#: How long (ms) a test waits for what it expects to appear: long, since a busy machine (two
#: cores, several test workers) can take seconds to answer; a passing test never waits it out.
#: The tests wait for what they can observe, never for a fixed time.
PATIENCE = 30_000


def chromium_path() -> str | None:
    """The Chromium binary the tests use, or ``None``."""
    named = os.environ.get("KOWAH_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


def unavailable() -> str | None:
    """Why the browser tests cannot run here, or ``None``."""
    try:
        import playwright.sync_api  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as error:
        return f"browser tests did not run: {error.name} is missing; {HOW}"
    if chromium_path() is None:
        return f"browser tests did not run: Chromium not found; {HOW}"
    return None


def skip_without_browser() -> None:
    """Skip the calling test module (or fail it, when browser tests are required); otherwise
    make Playwright's ``expect`` as patient as :data:`PATIENCE`."""
    problem = unavailable()
    if problem is not None:
        if REQUIRED:
            raise RuntimeError(f"KOWAH_BROWSER_TESTS=required, but the {problem}")
        pytest.skip(problem, allow_module_level=True)
    from playwright.sync_api import expect

    expect.set_options(timeout=PATIENCE)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve(app: Any) -> Iterator[str]:
    """Run *app* on uvicorn in a thread for the duration of a fixture; yields its address."""
    import uvicorn

    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + PATIENCE / 1000
    while not runner.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.025)
    assert runner.started, "uvicorn did not start"
    yield f"http://127.0.0.1:{port}"
    runner.should_exit = True
    thread.join(timeout=10)


# -- pixels ---------------------------------------------------------------------------------


def read_png(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and the RGB pixels (rows top to bottom) of an 8-bit, non-interlaced PNG,
    as Chromium writes screenshots."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, chunks, header = 8, [], b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    step = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * step
    pixels: list[tuple[int, int, int]] = []
    previous = bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up = previous[i]
            corner = previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                a, b, c = abs(guess - left), abs(guess - up), abs(guess - corner)
                line[i] = (line[i] + (left if a <= b and a <= c else up if b <= c else corner)) & 0xFF
        pixels += [(line[i], line[i + 1], line[i + 2]) for i in range(0, stride, step)]
        previous = line
    return width, height, pixels


def luminance(rgb: tuple[int, int, int]) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(one: tuple[int, int, int], other: tuple[int, int, int]) -> float:
    """WCAG 2's contrast ratio of two colours (1 to 21)."""
    a, b = sorted((luminance(one), luminance(other)), reverse=True)
    return (a + 0.05) / (b + 0.05)
