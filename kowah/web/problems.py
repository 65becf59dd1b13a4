"""The API's errors: :class:`Problem` (status, code, sentence) and the sentences of its codes.

Every error answer under ``/api`` is ``{"error": CODE, "message": SENTENCE, …}``, the sentence
in the request's language (:func:`kowah.web.language.language`): :data:`ERRORS` and
:data:`MORE_ERRORS` hold the sentences of the codes.

>>> from kowah.web.text import words
>>> problem = Problem.of(words("es"), 401, "key-required")
>>> problem.status, problem.code, problem.body()["error"]
(401, 'key-required', 'key-required')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kowah.errors import N_
from kowah.i18n import Translator
from kowah.web.answers import answer
from kowah.web.store import Refused

if TYPE_CHECKING:  # Starlette is needed for the answers only: the static site's Worker has none
    from starlette.responses import Response

__all__ = ["ERRORS", "EXPECTED", "MORE_ERRORS", "NO_SUCH_PATH", "Problem"]

#: The first edition's error sentences, by code (the response's ``error`` field).
ERRORS: dict[str, str] = {
    "bad-json": N_("web", "The request body is not valid JSON."),
    "bad-request": N_("web", "The request is not valid: {problem}"),
    "not-an-object": N_("web", "The request body must be a JSON object."),
    "bad-field": N_("web", "“{field}” must be {expected}."),
    "unknown-field": N_("web", "Unknown field “{field}”."),
    "too-large": N_("web", "The request body is larger than {limit} bytes."),
    "not-found": N_("web", "There is no such game."),
    "stale": N_("web", "The game is at version {version}, not {after}: nothing was changed."),
    "illegal": N_("web", "That is not possible now: {reason}"),
    "in-progress": N_("web", "The record can be downloaded once the deal is over."),
    "full": N_("web", "Too many games are in play; try again later."),
    "too-many-actions": N_("web", "This game has had too many requests."),
}

#: What a field must be (fills ``{expected}`` of ``bad-field``).
EXPECTED: dict[str, str] = {
    "language": N_("web", "one of en, it, cs, ms, es, id"),
    "opponents": N_("web", "one of the AI strengths ({names})"),
    "integer": N_("web", "a whole number"),
    "seat": N_("web", "0, 1 or 2"),
    "deck": N_("web", "a list of card codes"),
    "version": N_("web", "the state's version, a whole number"),
    "format": N_("web", "text, markdown or html"),
}

#: The second edition's error sentences, by code (context ``"web"``).
MORE_ERRORS: dict[str, str] = {
    "bad-host": N_("web", "This server does not answer to the name “{host}”."),
    "key-required": N_("web", "This needs the key of a seat at this table."),
    "bad-key": N_("web", "This key is not one of this table's."),
    "bad-origin": N_("web", "Requests from another web site are not accepted."),
    "creator-only": N_("web", "Only the person who made this table can do this."),
    "method-not-allowed": N_("web", "This address does not take that method."),
    "not-started": N_("web", "The deal has not started: some people have not taken their seats yet."),
    "already-started": N_("web", "The deal has already started."),
    "left": N_("web", "You left this table: an AI plays your seat."),
    "closed": N_("web", "This table is closed."),
    "json-required": N_("web", "Send the request body as JSON (Content-Type: application/json)."),
    "too-many-new": N_("web", "Too many new games from this address; try again in {seconds} s."),
    "not-saved": N_("web", "The game could not be saved, so nothing was changed; try again later."),
    "declaring-first": N_("web", "seat {seat} must first decide whether to declare checki."),
    "server-error": N_("web", "Something went wrong on the server; nothing was changed."),
    "unreadable": N_("web", "This game cannot be read: its saved form is damaged."),
    "not-over": N_("web", "The next deal can be asked for once this one is over."),
    "not-a-person": N_("web", "That seat is not played by a person at the table now."),
    "still-here": N_("web", "That person is still at the table: a seat can be handed to the AI "
                            "after {seconds} s without a connection."),
    "too-many-phrases": N_("web", "Too many phrases; wait a little."),
}

#: The sentence of a ``not-found`` answer for a path that names no game.
NO_SUCH_PATH = N_("web", "There is nothing at this address.")

#: What the new fields must be (fills ``{expected}`` of ``bad-field``).
MORE_EXPECTED: dict[str, str] = {
    "humans": N_("web", "1, 2 or 3"),
    "names": N_("web", "a list of names of 1 to 24 printable characters"),
    "turn_seconds": N_("web", "a whole number of seconds from 5 to 3600, or null"),
    "start": N_("web", "“now” or “when-full”"),
    "since": N_("web", "a whole number written in the digits 0–9"),
    "boolean": N_("web", "true or false"),
    "other-seat": N_("web", "1 or 2"),
    "phrase": N_("web", "one of the phrases ({names})"),
    "deal": N_("web", "the number of one of this table's deals"),
}


class Problem(Refused):
    """An API error: HTTP status, error code, the (localised) message and extra fields.
    Raised inside a store change, it leaves the game as it was."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra
        self.headers = headers or {}

    @classmethod
    def of(cls, t: Translator, status: int, code: str, headers: dict[str, str] | None = None,
           **params: Any) -> Problem:
        """The problem *code* with its sentence in *t*'s language (*params* fill it and go
        into the answer too)."""
        template = MORE_ERRORS.get(code) or ERRORS[code]
        return cls(status, code, t.gettext("web", template).format(**params), headers, **params)

    @classmethod
    def field(cls, t: Translator, field: str, expected: str, **params: Any) -> Problem:
        """A ``bad-field`` problem: *field* must be *expected* (a key of the EXPECTED tables)."""
        what = t.gettext("web", MORE_EXPECTED.get(expected) or EXPECTED[expected]).format(**params)
        message = t.gettext("web", ERRORS["bad-field"]).format(field=field, expected=what)
        return cls(400, "bad-field", message, field=field)

    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}

    def response(self) -> Response:
        return answer(self.body(), self.status, self.headers)


#: Names that moved to :mod:`kowah.web.language` (deprecated here).
_MOVED = frozenset({"LANG_COOKIE", "accept_language", "language", "translator_for"})


def __getattr__(name: str) -> Any:
    """The deprecated names of the language choice, now in :mod:`kowah.web.language`."""
    if name in _MOVED:
        import warnings

        import kowah.web.language

        warnings.warn(f"kowah.web.problems.{name} is deprecated; import it from kowah.web.language",
                      DeprecationWarning, stacklevel=2)
        return getattr(kowah.web.language, name)
    raise AttributeError(f"module 'kowah.web.problems' has no attribute {name!r}")
