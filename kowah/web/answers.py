"""The JSON of the table server's answers and saved games: one encoding for all of them.

An answer is compact UTF-8 JSON (no spaces, non-ASCII letters as they are). :func:`encode`
writes it with `orjson <https://github.com/ijl/orjson>`_ when it is installed (the ``web``
extra installs it on CPython): about fifteen times faster than the standard library's
:mod:`json` for a table's state, whose events each carry their own view of the table. Without
it, :mod:`json` writes the very same bytes (the tests compare the two on whole deals), but for
a float with an exponent: ``1e-7`` there is ``1e-07`` here. The answers' floats (times and
seconds) have none.

>>> encode({"stock": 96, "text": "Sé", "hand": ("1c", "rf"), "seat": None})
b'{"stock":96,"text":"S\\xc3\\xa9","hand":["1c","rf"],"seat":null}'

The answers hold no float that is not finite either (the standard library refuses one, orjson
writes ``null``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.responses import Response

__all__ = ["FAST", "answer", "encode", "encode_standard", "encode_text"]


def encode_standard(data: Any) -> bytes:
    """*data* as the answers' JSON, written by the standard library."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _fast_encoder() -> Callable[[Any], bytes] | None:
    try:
        import orjson
    except ImportError:  # the standard library's, then
        return None
    dumps, options = orjson.dumps, orjson.OPT_NON_STR_KEYS

    def encode_fast(data: Any) -> bytes:
        try:
            return dumps(data, option=options)
        except TypeError:  # what it cannot write (a very large int …): json's way
            return encode_standard(data)

    return encode_fast


#: The faster encoder, when orjson is installed (else ``None``).
FAST = _fast_encoder()


def encode(data: Any) -> bytes:
    """*data* (dicts, lists, tuples, text, numbers, ``None``) as the answers' JSON."""
    return encode_standard(data) if FAST is None else FAST(data)


def encode_text(data: Any) -> str:
    """:func:`encode` as text (a saved game's)."""
    return encode(data).decode()


def answer(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    """An HTTP answer of *data* in JSON (this module needs Starlette for this only)."""
    from starlette.responses import Response

    return Response(encode(data), status, headers, "application/json")
