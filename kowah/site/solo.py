"""The static site's game server, run by its Web Worker: the page's requests for a solo table
answered as ``kowah serve`` answers them (:mod:`kowah.web.api`), with the same Python
(:class:`~kowah.web.game.Game`, the text layer, :func:`~kowah.web.review.review_of`) and no
Starlette, so that the answers are the server's, byte for byte: the checks and changes are
:mod:`kowah.web.table_requests`'s, which the served API's endpoints call too; this module only
routes the Worker's requests to them and keeps the browser's games.

The Worker passes each request in (method, path, query, ``Authorization`` header, body) and
gets a :class:`Reply`: the status, the headers and the JSON text, and, after a change, the
game's saved form for the browser's storage. When the browser refuses to keep it,
:meth:`Tables.not_saved` puts the game back as it was and answers as the server does when its
disk is full.

>>> tables = Tables("http://127.0.0.1:8000")
>>> made = tables.handle("POST", "/api/games", "lang=en", None, '{"seed": 7, "opponents": "random"}')
>>> made.status, made.saved is not None
(201, True)
>>> import json
>>> game = json.loads(made.body)
>>> shown = tables.handle("GET", f"/api/games/{game['id']}", "lang=cs", f"Bearer {game['token']}", "")
>>> shown.status, json.loads(shown.body)["lang"], shown.saved
(200, 'cs', None)
>>> tables.handle("GET", "/api/games/nothing", "lang=en", None, "").status
404
"""

from __future__ import annotations

import json
import logging
from typing import Any
from urllib.parse import parse_qsl

import attrs

from kowah._value import Value
from kowah.actions import SEATS
from kowah.errors import KowahError
from kowah.i18n import LANGUAGES, Translator, translator
from kowah.players import PLAYERS
from kowah.record import Record
from kowah.web import table_requests
from kowah.web.answers import encode_text
from kowah.web.game import Game
from kowah.web.language import accept_language
from kowah.web.problems import NO_SUCH_PATH, Problem
from kowah.web.saved import GameError, restore, saved_text
from kowah.web.table_requests import (
    ACTION_FIELDS,
    bearer_key,
    check_fields,
    is_int,
    json_object,
    new_game,
    seat_of,
    too_large,
)
from kowah.web.text import words

__all__ = ["MAX_ACTIONS", "MAX_BODY_NEW", "Reply", "Tables", "warm"]

#: The action requests a game accepts (``kowah serve``'s default ``--max-actions``).
MAX_ACTIONS = 2000
#: The largest request body but a review's (``kowah serve``'s default ``--max-body``).
MAX_BODY_NEW = 8192
_JSON = {"content-type": "application/json"}
#: A game's addresses under /api/games/{id}: the method each takes.
_VERBS = {"": "GET", "hint": "GET", "record": "GET", "actions": "POST", "close": "POST", "leave": "POST"}


def _nothing_here(t: Translator) -> Reply:
    return Reply.of({"error": "not-found", "message": t.gettext("web", NO_SUCH_PATH)}, 404)


@attrs.frozen(init=False)
class Reply(Value):
    """One answer: HTTP *status*, *headers*, the JSON *body*, and *saved*: ``(id, text)`` of
    the game to keep in the browser after a change (``None`` when nothing changed)."""

    status: int
    headers: dict[str, str]
    body: str
    saved: tuple[str, str] | None

    def __init__(self, status: int, headers: dict[str, str], body: str,
                 saved: tuple[str, str] | None) -> None:
        self.__attrs_init__(status=status, headers=headers, body=body, saved=saved)

    @classmethod
    def of(cls, data: Any, status: int = 200, headers: dict[str, str] | None = None,
           saved: tuple[str, str] | None = None) -> Reply:
        return cls(status, {**_JSON, **(headers or {})}, encode_text(data), saved)


def _object(body: str, t: Translator, limit: int) -> dict[str, Any]:
    """The request's JSON object (as ``kowah.web.api`` reads it)."""
    if len(body.encode()) > limit:
        raise too_large(t, limit)
    return json_object(body, t)


class Tables:
    """The solo games of one browser, answered as the server at *base_url* would answer them."""

    def __init__(self, base_url: str, accept: str | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self.accept = accept
        self.games: dict[str, Game] = {}
        self._before: dict[str, str | None] = {}  # each game's saved text before its last change

    def load(self, text: str) -> str | None:
        """Take back a game the browser kept (its saved text); its id, or ``None`` when the
        text is not a game (it is then left out)."""
        try:
            game = restore(json.loads(text))
        except (GameError, ValueError, RecursionError):
            return None
        self.games[game.id] = game
        return game.id

    def not_saved(self, game_id: str, lang: str | None) -> Reply:
        """The browser could not keep the last change of *game_id*: the game goes back to what
        was kept before, and the answer is the server's for a change it could not save."""
        before = self._before.pop(game_id, None)
        if before is None:
            self.games.pop(game_id, None)
        else:
            self.load(before)
        problem = Problem.of(words(lang if lang in LANGUAGES else "en"), 503, "not-saved")
        return Reply.of(problem.body(), problem.status)

    def handle(self, method: str, path: str, query: str, authorization: str | None,
               body: str) -> Reply:
        """The answer to one request (see the module)."""
        params = dict(parse_qsl(query))
        lang = params.get("lang") if params.get("lang") in LANGUAGES else None
        t = words(lang or accept_language(self.accept))
        try:
            return self._route(method, path.rstrip("/") or "/", params, lang, t, authorization, body)
        except Problem as problem:
            return Reply.of(problem.body(), problem.status, problem.headers)
        except Exception:  # as the server answers what it did not foresee (nothing changed)
            logging.getLogger("kowah.site").exception("kowah: %s %s failed", method, path)
            failed = Problem.of(t, 500, "server-error")
            return Reply.of(failed.body(), failed.status)

    def _route(self, method: str, path: str, params: dict[str, str], lang: str | None,
               t: Translator, authorization: str | None, body: str) -> Reply:
        parts = path.split("/")[1:]
        if parts[:2] == ["api", "games"] and len(parts) in (3, 4):
            verb = parts[3] if len(parts) == 4 else ""
            if verb not in _VERBS:
                return _nothing_here(t)
            if method != _VERBS[verb]:
                raise Problem.of(t, 405, "method-not-allowed", headers={"allow": _VERBS[verb]})
            token = bearer_key(authorization, t)  # the server's order of checks
            since = table_requests.since(params.get("since"), t) if verb == "" else 0
            data = _object(body, t, MAX_BODY_NEW) if method == "POST" else {}
            check_fields(data, ACTION_FIELDS if verb == "actions" else (), t)
            if verb == "actions" and not is_int(data.get("after")):
                raise Problem.field(t, "after", "version")
            game = self.games.get(parts[2])
            if game is None:
                raise Problem.of(t, 404, "not-found")
            seat = seat_of(game, token, t, required=verb not in ("", "record"))
            if verb == "":
                return Reply.of(self._view(game, seat, lang, params, since))
            if verb == "hint":
                assert seat is not None
                return Reply.of(game.hint(seat, lang, params.get("codes") == "1"))
            if verb == "record":
                return self._record(game, t)
            return self._change(game, verb, seat, lang, params, t, data)
        if path == "/api/games" and method == "POST":
            return self._create(params, lang, t, body)
        if path == "/api/review" and method == "POST":
            return self._review(params, t, body)
        if path == "/api/rules" and method == "GET":
            from kowah.rendering import FORMATS, render_rules  # (imported when asked: a quicker start)

            format = params.get("format", "html")
            if format not in FORMATS:
                raise Problem.field(t, "format", "format")
            return Reply.of({"lang": t.language, "format": format, "rules": render_rules(t, format)})
        if path in ("/api/games", "/api/review"):
            raise Problem.of(t, 405, "method-not-allowed")
        return _nothing_here(t)

    def _view(self, game: Game, seat: int | None, lang: str | None, params: dict[str, str],
              since: int = 0, opened: bool = True) -> dict[str, Any]:
        # This page is the game's only client, open while it plays (the server counts its
        # live socket): seat 0 shows as connected but in the answer that makes the game.
        return game.state(lang, since, seat=seat, connected=(int(opened), 0, 0),
                          base_url=self.base_url, codes=params.get("codes") == "1")

    def _saved(self, game: Game, before: str | None) -> tuple[str, str]:
        self._before[game.id] = before
        return game.id, saved_text(game)

    def _create(self, params: dict[str, str], lang: str | None, t: Translator, body: str) -> Reply:
        game = new_game(_object(body, t, MAX_BODY_NEW), t, lang or t.language, "browser", PLAYERS,
                        friends=False)
        self.games[game.id] = game
        state = self._view(game, 0, lang, params, opened=False)
        state["token"] = game.seats[0].token
        state["invites"] = game.invites(self.base_url)
        state["watch"] = f"{self.base_url}/games/{game.id}"
        return Reply.of(state, 201, {"location": f"/api/games/{game.id}"}, self._saved(game, None))

    def _change(self, game: Game, verb: str, seat: int | None, lang: str | None,
                params: dict[str, str], t: Translator, data: dict[str, Any]) -> Reply:
        assert seat is not None
        before = saved_text(game)
        since = 0
        if verb == "actions":
            table_requests.act(game, seat, data, t, MAX_ACTIONS)
            since = int(data["after"])
        elif verb == "close":
            table_requests.close(game, seat, t)
        else:
            table_requests.leave(game, seat, t)
        return Reply.of(self._view(game, seat, lang, params, since), saved=self._saved(game, before))

    @staticmethod
    def _record(game: Game, t: Translator) -> Reply:
        if not game.is_over:
            raise Problem.of(t, 409, "in-progress")
        filename = f"kowah-{game.id[:8]}.json"
        return Reply(200, {**_JSON, "content-disposition": f'attachment; filename="{filename}"'},
                     json.dumps(game.record(), indent=1) + "\n", None)

    def _review(self, params: dict[str, str], first: Translator, body: str) -> Reply:
        """``POST /api/review`` (as :func:`kowah.web.review.review` answers it)."""
        from kowah.errors import RecordError
        from kowah.web.review import MAX_BODY, bad_record, review_of  # (when asked: a quicker start)

        if len(body.encode()) > MAX_BODY:
            raise Problem.of(first, 413, "too-large", limit=MAX_BODY)
        try:
            data = json.loads(body or "{}")
        except (ValueError, RecursionError):
            raise Problem.of(first, 400, "bad-json") from None
        if not isinstance(data, dict):
            raise Problem.of(first, 400, "not-an-object")
        body_lang = data.get("lang") if isinstance(data.get("lang"), str) else None
        lang = next((tag for tag in (params.get("lang"), body_lang) if tag in LANGUAGES),
                    accept_language(self.accept))
        t = translator(lang, codes=params.get("codes") == "1")
        seat = data.get("seat", 0)
        if type(seat) is not int or not 0 <= seat < SEATS:
            raise Problem.field(t, "seat", "seat")
        raw = data.get("record")
        tags = raw.get("tags") if isinstance(raw, dict) else None
        try:
            record = Record.from_dict(raw)
        except KowahError as error:
            raise bad_record(t, t.error(error)) from None
        try:
            return Reply.of(review_of(record, t, seat, tags if isinstance(tags, dict) else None))
        except RecordError as error:
            raise bad_record(t, t.error(error), action=error.action) from None


def warm(lang: str) -> None:
    """Answer once, and forget, what a page in *lang* asks first (a new deal, its state): the
    Worker calls it before it takes Pyodide's memory snapshot, so that the snapshot holds the
    words, the locale data and the tables those answers load, and a later visit's first
    answer finds them there. Nothing is kept: the games are made in a :class:`Tables` of
    their own, dropped at once.

    >>> warm("cs")
    >>> warm("xx")  # not a language of the table: English's words
    """
    tables = Tables("http://127.0.0.1")
    query = f"lang={lang if lang in LANGUAGES else 'en'}"
    made = tables.handle("POST", "/api/games", query, None, '{"seed": 1, "opponents": "normal"}')
    game = json.loads(made.body)
    tables.handle("GET", f"/api/games/{game['id']}", query, f"Bearer {game['token']}", "")
