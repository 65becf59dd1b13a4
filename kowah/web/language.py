"""Which language a request is answered in: ``?lang=``, the game's own, the cookie the page
sets (:data:`LANG_COOKIE`), then the ``Accept-Language`` header; English when none is spoken.

>>> accept_language("de-DE, cs;q=0.8, en;q=0.5")
'cs'
"""

from __future__ import annotations

import functools
import warnings
from typing import TYPE_CHECKING

from kowah.i18n import LANGUAGES, LocaleWarning, Translator, negotiate
from kowah.web.text import words

if TYPE_CHECKING:  # only the connection's type: the static site's Worker has no Starlette
    from starlette.requests import HTTPConnection

__all__ = ["LANG_COOKIE", "accept_language", "language", "translator_for"]

#: The cookie that remembers the chosen language.
LANG_COOKIE = "kowah-lang"


def _quiet_negotiate(tag: str | None) -> str | None:
    """The supported language for *tag*, or ``None`` (no warnings)."""
    if not tag:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LocaleWarning)
        found = negotiate(tag)
    return found if found != "en" or tag.lower().startswith("en") else None


def accept_language(header: str | None) -> str:
    """The first language of an ``Accept-Language`` header the table speaks, else English.

    >>> accept_language("de-DE, cs;q=0.8, en;q=0.5")
    'cs'
    >>> accept_language(None)
    'en'
    """
    if header is None or len(header) <= 200:  # a browser sends the same one every time
        return _accept_language(header)
    return _accept_language.__wrapped__(header)


@functools.lru_cache(maxsize=256)
def _accept_language(header: str | None) -> str:
    entries: list[tuple[float, int, str]] = []
    for index, part in enumerate((header or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and tag != "*":
            entries.append((-quality, index, tag))
    for quality, _index, tag in sorted(entries):
        found = _quiet_negotiate(tag) if quality < 0 else None
        if found is not None:
            return found
    return "en"


def language(connection: HTTPConnection, game_lang: str | None = None) -> str:
    """The request's language: ``?lang``, the game's, the cookie, ``Accept-Language``."""
    for tag in (connection.query_params.get("lang"), game_lang, connection.cookies.get(LANG_COOKIE)):
        if tag in LANGUAGES:
            return str(tag)
    return accept_language(connection.headers.get("accept-language"))


def translator_for(connection: HTTPConnection, game_lang: str | None = None) -> Translator:
    """The words of the request's :func:`language`."""
    return words(language(connection, game_lang))
