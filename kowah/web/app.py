"""The browser table's HTTP layer: the page, the card pictures and the JSON API (Starlette).

:func:`create_app` builds a fresh application around a :class:`~kowah.web.store.Store`; the
handlers are thin, the game logic is in :mod:`kowah.web.game` and the library. Every response
carries the security headers (:data:`SECURITY_HEADERS`): a Content-Security-Policy that allows
no inline script, ``nosniff``, no framing and no referrer.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from kowah import svg
from kowah.cards import KOWAH_DECK, Card
from kowah.errors import KowahError, StoreFullError
from kowah.i18n import LANGUAGES, LocaleWarning, Translator, negotiate
from kowah.players import PLAYERS
from kowah.rendering import FORMATS, render_rules
from kowah.web import engine, review
from kowah.web.game import HUMAN, Game
from kowah.web.page import LANG_COOKIE, render_page
from kowah.web.store import Store
from kowah.web.text import ERRORS, EXPECTED, MESSAGES, words

__all__ = ["SECURITY_HEADERS", "create_app"]

_HERE = Path(__file__).resolve().parent
_STATIC = _HERE / "static"

#: Headers on every response.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "img-src 'self'; connect-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}

_Scope = MutableMapping[str, Any]
_Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
_Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
_App = Callable[[_Scope, _Receive, _Send], Awaitable[None]]


class _Headers:
    """ASGI middleware: the security headers on every HTTP response."""

    def __init__(self, app: _App) -> None:
        self.app = app
        self.extra = [(key.encode(), value.encode()) for key, value in SECURITY_HEADERS.items()]

    async def __call__(self, scope: _Scope, receive: _Receive, send: _Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.extra]
            await send(message)

        await self.app(scope, receive, with_headers)


class _Problem(Exception):
    """An API error: HTTP status, error code and the (localised) message."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def _quiet_negotiate(tag: str | None) -> str | None:
    """The supported language for *tag*, or ``None`` (no warnings)."""
    if not tag:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LocaleWarning)
        language = negotiate(tag)
    return language if language != "en" or tag.lower().startswith("en") else None


def accept_language(header: str | None) -> str:
    """The first language of an ``Accept-Language`` header the table speaks, else English.

    >>> accept_language("de-DE, cs;q=0.8, en;q=0.5")
    'cs'
    >>> accept_language(None)
    'en'
    """
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
        language = _quiet_negotiate(tag) if quality < 0 else None
        if language is not None:
            return language
    return "en"


def _language(request: Request, game: Game | None = None) -> str:
    for tag in (request.query_params.get("lang"), None if game is None else game.lang,
                request.cookies.get(LANG_COOKIE)):
        if tag in LANGUAGES:
            return str(tag)
    return accept_language(request.headers.get("accept-language"))


def _error_text(t: Translator, code: str, **params: Any) -> str:
    return t.gettext("web", ERRORS[code]).format(**params)


def _bad_field(t: Translator, field: str, expected: str, **params: Any) -> _Problem:
    what = t.gettext("web", EXPECTED[expected]).format(**params)
    return _Problem(400, "bad-field", _error_text(t, "bad-field", field=field, expected=what),
                    field=field)


def _problem_response(problem: _Problem) -> JSONResponse:
    body = {"error": problem.code, "message": problem.message, **problem.extra}
    return JSONResponse(body, status_code=problem.status)


async def _read_json(request: Request, limit: int, t: Translator) -> dict[str, Any]:
    """The request's JSON object, read no further than *limit* bytes."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise _Problem(413, "too-large", _error_text(t, "too-large", limit=limit))
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise _Problem(413, "too-large", _error_text(t, "too-large", limit=limit))
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise _Problem(400, "bad-json", _error_text(t, "bad-json")) from None
    if not isinstance(data, dict):
        raise _Problem(400, "not-an-object", _error_text(t, "not-an-object"))
    return data


def _check_fields(data: dict[str, Any], allowed: tuple[str, ...], t: Translator) -> None:
    for key in data:
        if key not in allowed:
            raise _Problem(400, "unknown-field", _error_text(t, "unknown-field", field=str(key)[:40]),
                           field=str(key)[:40])


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _new_game(data: dict[str, Any], t: Translator, lang: str) -> Game:
    _check_fields(data, ("lang", "opponents", "seed", "deck", "first"), t)
    if "lang" in data and data["lang"] not in LANGUAGES:
        raise _bad_field(t, "lang", "language")
    opponents = data.get("opponents", "normal")
    if opponents not in PLAYERS:
        raise _bad_field(t, "opponents", "opponents", names=", ".join(PLAYERS))
    seed = data.get("seed")
    if seed is not None and not (_is_int(seed) and abs(seed) < 2**63):
        raise _bad_field(t, "seed", "integer")
    first = data.get("first")
    if first is not None and not (_is_int(first) and 0 <= first < 3):
        raise _bad_field(t, "first", "seat")
    deck = data.get("deck")
    cards = None
    if deck is not None:
        if not (isinstance(deck, list) and all(isinstance(code, str) for code in deck)
                and len(deck) <= 2 * len(KOWAH_DECK)):
            raise _bad_field(t, "deck", "deck")
        try:
            cards = [Card.parse(code) for code in deck]
        except KowahError as error:
            raise _Problem(400, "bad-request", _error_text(t, "bad-request", problem=t.error(error)),
                           field="deck") from None
    try:
        return Game.new(seed=seed, opponents=str(opponents), lang=str(data.get("lang", lang)),
                        deck=cards, first=first)
    except KowahError as error:
        raise _Problem(400, "bad-request", _error_text(t, "bad-request", problem=t.error(error)),
                       field="deck") from None


#: AI strengths that think long enough to be played in a worker thread; the others answer in
#: well under a millisecond, faster than the hand-over to a thread.
SLOW_PLAYERS = frozenset({"hard"})


async def _run(opponents: str, work: Callable[[], Any]) -> Any:
    if opponents in SLOW_PLAYERS:
        return await run_in_threadpool(work)
    return work()


def create_app(store: Store | None = None, *, max_body: int = 8192, max_actions: int = 2000) -> Starlette:
    """A new browser-table application on *store* (default: in memory only).

    *max_body* bounds a request body (bytes, else 413), *max_actions* the action requests a
    game accepts (refused ones included, else 429).
    """
    games = store if store is not None else Store(None)

    def game_or_404(request: Request, t: Translator) -> Game:
        game = games.get(request.path_params["game"])
        if game is None:
            raise _Problem(404, "not-found", _error_text(t, "not-found"))
        return game

    def api(handler: Callable[[Request], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
        async def wrapped(request: Request) -> Response:
            try:
                return await handler(request)
            except _Problem as problem:
                return _problem_response(problem)
        return wrapped

    @api
    async def create(request: Request) -> Response:
        lang = _language(request)
        t = words(lang)
        data = await _read_json(request, max_body, t)

        def work() -> dict[str, Any]:
            game = _new_game(data, t, lang)
            try:
                games.add(game)
            except StoreFullError:
                raise _Problem(503, "full", _error_text(t, "full")) from None
            return game.state()

        state = await _run(str(data.get("opponents", "normal")), work)
        return JSONResponse(state, status_code=201, headers={"location": f"/api/games/{state['id']}"})

    @api
    async def show(request: Request) -> Response:
        t = words(_language(request))
        game = game_or_404(request, t)
        since = request.query_params.get("since", "0")
        start = int(since) if since.isdigit() and len(since) < 7 else 0
        lang = request.query_params.get("lang")

        def work() -> dict[str, Any]:
            with game.lock:  # a hard game may be thinking in a worker thread
                return game.state(lang if lang in LANGUAGES else None, start)

        return JSONResponse(await _run(game.opponents, work))

    @api
    async def act(request: Request) -> Response:
        t = words(_language(request))
        game = game_or_404(request, t)
        t = words(_language(request, game))
        data = await _read_json(request, max_body, t)
        _check_fields(data, ("do", "card", "wait", "seat", "after"), t)
        after = data.pop("after", None)
        if not _is_int(after):
            raise _bad_field(t, "after", "version")
        try:
            action = engine.action_from_dict(data, HUMAN)
        except KowahError as error:
            raise _Problem(400, "bad-request",
                           _error_text(t, "bad-request", problem=t.error(error))) from None
        lang = request.query_params.get("lang")

        def work() -> dict[str, Any]:
            with game.lock:
                game.requests += 1
                if game.requests > max_actions:
                    raise _Problem(429, "too-many-actions", _error_text(t, "too-many-actions"))
                version = game.version
                if after != version:
                    raise _Problem(409, "stale", _error_text(t, "stale", version=version, after=after),
                                   version=version)
                refused = game.refusal(action, t)
                if refused is not None:
                    raise _Problem(422, "illegal", _error_text(t, "illegal", reason=refused.message),
                                   reason=refused.code, reason_message=refused.message, version=version)
                game.act(action)
                games.save(game)
                return game.state(lang if lang in LANGUAGES else None, after)

        return JSONResponse(await _run(game.opponents, work))

    @api
    async def hint(request: Request) -> Response:
        t = words(_language(request))
        game = game_or_404(request, t)
        lang = request.query_params.get("lang")

        def work() -> dict[str, Any]:
            with game.lock:
                return game.hint(lang if lang in LANGUAGES else None)

        return JSONResponse(await run_in_threadpool(work))  # the coach thinks like hard

    @api
    async def record(request: Request) -> Response:
        t = words(_language(request))
        game = game_or_404(request, t)

        def work() -> dict[str, Any]:
            with game.lock:
                if not game.is_over:
                    raise _Problem(409, "in-progress", _error_text(t, "in-progress"))
                return game.record()

        saved = await _run(game.opponents, work)
        filename = f"kowah-{game.id[:8]}.json"
        return Response(json.dumps(saved, indent=1) + "\n", media_type="application/json",
                        headers={"content-disposition": f'attachment; filename="{filename}"'})

    @api
    async def rules(request: Request) -> Response:
        lang = _language(request)
        t = words(lang)
        format = request.query_params.get("format", "html")
        if format not in FORMATS:
            raise _bad_field(t, "format", "format")
        return JSONResponse({"lang": lang, "format": format, "rules": render_rules(t, format)})

    async def card_picture(request: Request) -> Response:
        code = request.path_params["code"]
        t = words(_language(request))
        if code == "back":
            text = svg.back(title=t.gettext("web", MESSAGES["back"]))
        else:
            try:
                card = Card.parse(code)
            except KowahError:
                return Response("not found\n", status_code=404, media_type="text/plain")
            text = svg.card(card, title=t.card_name(card))
        return Response(text, media_type="image/svg+xml",
                        headers={"cache-control": "public, max-age=3600"})

    async def page(request: Request) -> Response:
        lang = _language(request)
        t = words(lang)
        response = HTMLResponse(render_page(t), headers={"cache-control": "no-cache",
                                                         "content-language": lang})
        if request.query_params.get("lang") in LANGUAGES:
            response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="strict")
        return response

    routes = [
        Route("/", page),
        Route("/cards/{code}.svg", card_picture),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game}", show),
        Route("/api/games/{game}/actions", act, methods=["POST"]),
        Route("/api/games/{game}/record", record),
        Route("/api/games/{game}/hint", hint),
        Route("/api/rules", rules),
        *review.ROUTES,
        Mount("/static", StaticFiles(directory=_STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.store = games
    app.add_middleware(_Headers)
    return app
