"""The quick phrases people at a table may say: a small fixed set, each shown to every viewer
in that viewer's own language (no free text, so nothing to moderate).

A phrase is said by its id (``POST /api/games/{id}/say {"phrase": "good-game"}``); the log
keeps the id, and each viewer's state carries the sentence in the language of their request.

>>> from kowah.web.text import words
>>> phrase_text(words("en"), "good-game"), phrase_text(words("es"), "thanks")
('Good game', 'Gracias')
>>> [item["id"] for item in phrase_list(words("en"))][:3]
['hello', 'good-luck', 'your-turn']
"""

from __future__ import annotations

from typing import Any

from kowah.errors import N_
from kowah.i18n import Translator

__all__ = ["PHRASES", "PHRASE_IDS", "phrase_list", "phrase_text"]

#: The phrases, by id, in the order the page offers them (context ``"phrase"``).
PHRASES: dict[str, str] = {
    "hello": N_("phrase", "Hello"),
    "good-luck": N_("phrase", "Good luck"),
    "your-turn": N_("phrase", "Your turn!"),
    "one-moment": N_("phrase", "One moment"),
    "thanks": N_("phrase", "Thanks"),
    "nice-take": N_("phrase", "Nice take!"),
    "well-played": N_("phrase", "Well played"),
    "oops": N_("phrase", "Oops"),
    "sorry": N_("phrase", "Sorry"),
    "good-game": N_("phrase", "Good game"),
    "another-deal": N_("phrase", "Another deal?"),
    "bye": N_("phrase", "Bye"),
}
#: The phrases' ids.
PHRASE_IDS: tuple[str, ...] = tuple(PHRASES)


def phrase_text(t: Translator, phrase: str) -> str:
    """The phrase *phrase* (an id) in *t*'s language."""
    return t.gettext("phrase", PHRASES[phrase])


def phrase_list(t: Translator) -> list[dict[str, Any]]:
    """Every phrase, ``{"id", "text"}``, in *t*'s language (``GET /api/phrases``)."""
    return [{"id": phrase, "text": phrase_text(t, phrase)} for phrase in PHRASE_IDS]
