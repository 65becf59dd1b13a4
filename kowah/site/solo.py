"""The static site's game server, run by its Web Worker: the page's requests for a solo table
answered as ``kowah serve`` answers them (:mod:`kowah.web.api`), with the same Python
(:class:`~kowah.web.game.Game`, the text layer, :func:`~kowah.web.review.review_of`) and no
Starlette, so that the answers are the server's, byte for byte.

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
import time
from typing import Any
from urllib.parse import parse_qsl

import attrs

from kowah._value import Value
from kowah.actions import SEATS, Action
from kowah.cards import KOWAH_DECK, Card
from kowah.errors import KowahError
from kowah.i18n import LANGUAGES, Translator, translator
from kowah.players import PLAYERS
from kowah.record import Record
from kowah.web.answers import encode_text
from kowah.web.game import TURN_SECONDS, Game
from kowah.web.language import accept_language
from kowah.web.problems import ERRORS, MORE_ERRORS, NO_SUCH_PATH, Problem
from kowah.web.saved import GameError, restore, saved_text
from kowah.web.seats import name_ok
from kowah.web.text import words

__all__ = ["MAX_ACTIONS", "MAX_BODY_NEW", "Reply", "Tables"]

#: The action requests a game accepts (``kowah serve``'s default ``--max-actions``).
MAX_ACTIONS = 2000
#: The largest request body but a review's (``kowah serve``'s default ``--max-body``).
MAX_BODY_NEW = 8192
_NEW_FIELDS = ("lang", "opponents", "seed", "deck", "first", "humans", "names", "start",
               "turn_seconds")
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


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _object(body: str, t: Translator, limit: int) -> dict[str, Any]:
    """The request's JSON object (as ``kowah.web.api`` reads it)."""
    if len(body.encode()) > limit:
        raise Problem.of(t, 413, "too-large", limit=limit)
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise Problem.of(t, 400, "bad-json") from None
    if not isinstance(data, dict):
        raise Problem.of(t, 400, "not-an-object")
    return data


def _fields(data: dict[str, Any], allowed: tuple[str, ...], t: Translator) -> None:
    for key in data:
        if key not in allowed:
            raise Problem.of(t, 400, "unknown-field", field=str(key)[:40])


def _new_game(data: dict[str, Any], t: Translator, lang: str) -> Game:
    """``POST /api/games``'s checks, in the order the server makes them."""
    _fields(data, _NEW_FIELDS, t)
    if "lang" in data and data["lang"] not in LANGUAGES:
        raise Problem.field(t, "lang", "language")
    opponents = data.get("opponents", "normal")
    if opponents not in PLAYERS:
        raise Problem.field(t, "opponents", "opponents", names=", ".join(PLAYERS))
    seed = data.get("seed")
    if seed is not None and not (_is_int(seed) and abs(seed) < 2**63):
        raise Problem.field(t, "seed", "integer")
    first = data.get("first")
    if first is not None and not (_is_int(first) and 0 <= first < 3):
        raise Problem.field(t, "first", "seat")
    humans = data.get("humans", 1)
    if not (_is_int(humans) and 1 <= humans <= 3):
        raise Problem.field(t, "humans", "humans")
    names = data.get("names", [])
    if not (isinstance(names, list) and len(names) <= humans
            and all(name is None or name_ok(name) for name in names)):
        raise Problem.field(t, "names", "names")
    turn_seconds = data.get("turn_seconds")
    if turn_seconds is not None and not (
            _is_int(turn_seconds) and TURN_SECONDS[0] <= turn_seconds <= TURN_SECONDS[1]):
        raise Problem.field(t, "turn_seconds", "turn_seconds")
    start = data.get("start", "when-full")
    if start not in ("now", "when-full"):
        raise Problem.field(t, "start", "start")
    if humans != 1:  # friends play at a kowah serve table (the site's "Play with friends")
        raise Problem.field(t, "humans", "humans")
    deck = data.get("deck")
    cards = None
    if deck is not None:
        if not (isinstance(deck, list) and all(isinstance(code, str) for code in deck)
                and len(deck) <= 2 * len(KOWAH_DECK)):
            raise Problem.field(t, "deck", "deck")
        try:
            cards = [Card.parse(code) for code in deck]
        except KowahError as error:
            raise Problem.of(t, 400, "bad-request", problem=t.error(error), field="deck") from None
    try:
        return Game.new(seed=seed, opponents=str(opponents), lang=str(data.get("lang", lang)),
                        deck=cards, first=first, owner="browser")
    except KowahError as error:
        raise Problem.of(t, 400, "bad-request", problem=t.error(error), field="deck") from None


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
            token = self._token(authorization, t)  # the server's order of checks
            since = self._since(params, t) if verb == "" else 0
            data = _object(body, t, MAX_BODY_NEW) if method == "POST" else {}
            _fields(data, ("do", "card", "wait", "seat", "after") if verb == "actions" else (), t)
            if verb == "actions" and not _is_int(data.get("after")):
                raise Problem.field(t, "after", "version")
            game = self.games.get(parts[2])
            if game is None:
                raise Problem.of(t, 404, "not-found")
            seat = self._seat(game, token, t, required=verb not in ("", "record"))
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

    @staticmethod
    def _since(params: dict[str, str], t: Translator) -> int:
        since = params.get("since", "0")
        if not (since.isascii() and since.isdigit() and len(since) < 10):
            raise Problem.field(t, "since", "since")
        return int(since)

    @staticmethod
    def _token(authorization: str | None, t: Translator) -> str | None:
        if authorization is None:
            return None
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Problem.of(t, 401, "bad-key", headers={"www-authenticate": "Bearer"})
        return token.strip()

    @staticmethod
    def _seat(game: Game, token: str | None, t: Translator, *, required: bool) -> int | None:
        if token is None:
            if required:
                raise Problem.of(t, 401, "key-required", headers={"www-authenticate": "Bearer"})
            return None
        seat = game.seat_of(token)
        if seat is None:
            raise Problem.of(t, 401, "bad-key", headers={"www-authenticate": "Bearer"})
        return seat

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
        game = _new_game(_object(body, t, MAX_BODY_NEW), t, lang or t.language)
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
            since = self._act(game, seat, data, t)
        else:
            if verb == "close":
                if seat != 0:
                    raise Problem.of(t, 403, "creator-only")
                if not game.closed:
                    game.close()
            else:
                self._ready(game, t)
                if not game.seats[seat].left and not game.is_over:
                    game.leave(seat)
        return Reply.of(self._view(game, seat, lang, params, since), saved=self._saved(game, before))

    @staticmethod
    def _ready(game: Game, t: Translator) -> None:
        if game.closed:
            raise Problem.of(t, 409, "closed")

    def _act(self, game: Game, seat: int, data: dict[str, Any], t: Translator) -> int:
        """``POST …/actions``: the checks of ``kowah.web.api.act``, then the action."""
        after = data.pop("after")
        game.requests[seat] += 1
        if game.requests[seat] > MAX_ACTIONS:
            raise Problem.of(t, 429, "too-many-actions")
        self._ready(game, t)
        if not game.started:
            raise Problem.of(t, 409, "not-started")
        if game.seats[seat].left:
            raise Problem.of(t, 409, "left")
        game.seen[seat] = time.time()
        try:
            action = Action.from_dict(data, seat=seat)
        except KowahError as error:
            raise Problem.of(t, 400, "bad-request", problem=t.error(error)) from None
        version = game.version
        if after != version:
            raise Problem.of(t, 409, "stale", version=version, after=after)
        if action not in game.legal(seat):
            refused = game.deal.why_illegal(action)
            if refused is not None:
                reason, why = refused.reason.value, t.refusal(refused)
            else:  # legal, but a seat in its declaring window chooses first (R11)
                reason = "not-your-turn"
                why = t.gettext("web", MORE_ERRORS["declaring-first"]).format(seat=game.actor)
            message = t.gettext("web", ERRORS["illegal"]).format(reason=why)
            raise Problem(422, "illegal", message, reason=reason, reason_message=why, version=version)
        game.act(action)
        return int(after)

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
