"""Quoting user input in messages: shortened, and printable on any terminal.

Private to the package; its names are public within it (``from kowah._quote import quote``).
A token typed or read from a file may be megabytes long, or hold escape sequences, invalid
UTF-8 (as surrogate escapes) or control characters: a message quotes it through
:func:`quote` (or :func:`printable` for text that is not a token), so that neither reaches
the terminal as it is.

>>> quote("5c")
"'5c'"
>>> quote("\\x1b[31mred")
"'\\\\x1b[31mred'"
>>> quote("x" * 100, limit=10)
"'xxxxx…xxxx'"
>>> printable("caf\\udce9 ok\\tgo")
'caf\\\\xe9 ok\\\\tgo'
"""

from __future__ import annotations

__all__ = ["LIMIT", "printable", "quote", "shorten"]

#: The longest quoted token, in characters, before it is shortened in the middle.
LIMIT = 40

_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _char(char: str) -> str:
    code = ord(char)
    if char in _ESCAPES:
        return _ESCAPES[char]
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if char.isprintable() or char == " ":
        return char
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shorten(text: str, limit: int = LIMIT) -> str:
    """*text* cut to *limit* characters with "…" in the middle, when it is longer.

    >>> shorten("abcdefghij", 5)
    'ab…ij'
    """
    if limit < 3 or len(text) <= limit:
        return text
    head = (limit - 1) // 2 + (limit - 1) % 2
    tail = limit - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def printable(text: str, limit: int | None = None) -> str:
    """*text* with control characters, escape sequences and stray bytes written as escapes.

    With *limit*, the text is first cut to about that many characters (see :func:`shorten`),
    so a 10 MB input never makes a 10 MB line.
    """
    if limit is not None:
        text = shorten(text, limit)
    if text.isprintable():
        return text
    return "".join(_char(char) for char in text)


def quote(value: object, limit: int = LIMIT) -> str:
    """*value* as a quoted token for a message: ``'5c'``, shortened and printable.

    Numbers and other values are written as :func:`str` gives them, in quotes; a
    string as it was typed.
    """
    text = value if isinstance(value, str) else str(value)
    return "'" + printable(text, limit) + "'"
