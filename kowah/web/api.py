"""The JSON API's endpoints (see the docs' web API page), at module level.

Each reads the server's state that the application's lifespan hands it in ``request.state``
(``store``, ``settings``, ``threads``, ``writer``, ``live``), checks the request, and hands the
game work to a thread (``request.state.threads``): a game is read, changed and saved there, never on the
event loop, and nothing the loop waits on is locked by it. A change goes to the application's
:class:`~kowah.web.writer.Writer`, which commits it (with the others that came meanwhile)
before the answer.
"""

from __future__ import annotations

import json as _json
import time
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from kowah.i18n import LANGUAGES, Translator
from kowah.web import table_requests
from kowah.web.addresses import client_address
from kowah.web.answers import answer, encode
from kowah.web.game import Game
from kowah.web.language import language, translator_for
from kowah.web.phrases import PHRASE_IDS, phrase_list
from kowah.web.problems import Problem
from kowah.web.saved import MOST_LOGGED
from kowah.web.seats import name_ok
from kowah.web.store import Store
from kowah.web.table_requests import (
    ACTION_FIELDS,
    bearer_key,
    check_fields,
    is_int,
    json_object,
    new_game,
    ready,
    seat_of,
    too_large,
)
from kowah.web.text import words
from kowah.web.threads import GameThreads
from kowah.web.writer import Writer

__all__ = ["OFFLINE_SECONDS", "act", "close", "create", "hand_over", "hint", "join", "leave",
           "next_deal", "phrases", "record", "say", "show", "start"]

#: A person with no open socket and no change for this long (seconds) is offline: the creator
#: may hand their seat to the AI.
OFFLINE_SECONDS = 30.0

T = TypeVar("T")


def _store(request: Request) -> Store:
    store: Store = request.state.store
    return store


async def _in_thread(request: Request, function: Callable[..., T], *args: Any) -> T:
    """*function*'s result, called in the application's game threads."""
    threads: GameThreads = request.state.threads
    return await threads.run(function, *args)


async def _read_json(request: Request, t: Translator) -> dict[str, Any]:
    """The request's JSON object, read no further than the settings' limit."""
    limit = request.state.settings.max_body
    declared = request.headers.get("content-length")
    if declared is not None and declared.isascii() and declared.isdigit() and int(declared) > limit:
        raise too_large(t, limit)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_large(t, limit)
    return json_object(bytes(body), t)


def _lang(request: Request) -> str | None:
    lang = request.query_params.get("lang")
    return lang if lang in LANGUAGES else None


def _with_codes(request: Request) -> bool:
    """``?codes=1``: sentences name cards with their codes too ("the Red Flower (rf)")."""
    return request.query_params.get("codes") == "1"


def _token(request: Request, t: Translator) -> str | None:
    """The request's key: ``None`` without an ``Authorization`` header; 401 for another scheme."""
    return bearer_key(request.headers.get("authorization"), t)


async def _asked(request: Request, fields: tuple[str, ...]) -> tuple[Translator, str | None, dict[str, Any]]:
    """What a change asks: the request's words, its key (``None`` without one) and its JSON
    body, which may hold only *fields*."""
    t = translator_for(request)
    token = _token(request, t)
    data = await _read_json(request, t)
    check_fields(data, fields, t)
    return t, token, data


def _base_url(request: Request) -> str:
    host = request.headers.get("host")
    return f"{request.scope['scheme']}://{host}" if host else str(request.base_url).rstrip("/")


def _view(request: Request, game: Game, seat: int | None, since: int = 0) -> dict[str, Any]:
    """*seat*'s state of *game* (the caller holds its lock)."""
    store = _store(request)
    connected = (store.presence(game.id) if game.humans > 1
                 else request.state.live.local(game.id))
    return game.state(_lang(request), since, seat=seat, connected=connected,
                      base_url=_base_url(request), codes=_with_codes(request))


async def _change(request: Request, t: Translator,
                  change: Callable[[Game], dict[str, Any]]) -> Response:
    """Run *change* on the request's game in the writer's thread, saved before it returns, and
    answer with the state it returns. The state is encoded there too, as soon as it is made:
    the answers waiting for a batch's commit are then bytes, not many small lists and dicts
    that the garbage collector would go through again and again."""
    writer: Writer = request.state.writer
    body = await writer.update(request.path_params["game"], lambda game: encode(change(game)))
    if body is None:
        raise Problem.of(t, 404, "not-found")
    return Response(body, media_type="application/json")


async def _read(request: Request, t: Translator, read: Callable[[Game], T]) -> T:
    result: T | None = await _in_thread(request, _store(request).read, request.path_params["game"], read)
    if result is None:
        raise Problem.of(t, 404, "not-found")
    return result


async def create(request: Request) -> Response:
    lang = language(request)
    t = words(lang)
    data = await _read_json(request, t)
    settings = request.state.settings
    address = client_address(request.scope, settings.trust_proxies)

    def work() -> dict[str, Any]:
        game = new_game(data, t, lang, address)  # a refused body is not counted
        store = _store(request)
        wait = store.allow_new(address, time.time(), settings.max_new_per_minute)
        if wait:
            raise Problem.of(t, 429, "too-many-new", headers={"retry-after": str(wait)}, seconds=wait)
        store.add(game)
        with game.lock:
            state = _view(request, game, 0)
            state["token"] = game.seats[0].token
            state["invites"] = game.invites(_base_url(request))
            state["watch"] = f"{_base_url(request)}/games/{game.id}"
        return state

    state = await _in_thread(request, work)
    return answer(state, 201, {"location": f"/api/games/{state['id']}"})


def _since(request: Request, t: Translator) -> int:
    return table_requests.since(request.query_params.get("since"), t)


async def show(request: Request) -> Response:
    t = translator_for(request)
    token = _token(request, t)
    since = _since(request, t)
    return answer(await _read(request, t, lambda game: _view(
        request, game, seat_of(game, token, t, required=False), since)))


async def act(request: Request) -> Response:
    t, token, data = await _asked(request, ACTION_FIELDS)
    if not is_int(data.get("after")):
        raise Problem.field(t, "after", "version")
    after = int(data["after"])
    limit = request.state.settings.max_actions

    def change(game: Game) -> dict[str, Any]:
        seat = seat_of(game, token, t, required=True)
        assert seat is not None
        if table_requests.act(game, seat, data, t, limit):  # the AI played meanwhile
            return {**_view(request, game, seat, after), "taken_back": True}
        return _view(request, game, seat, after)

    return await _change(request, t, change)


async def join(request: Request) -> Response:
    t, token, data = await _asked(request, ("name",))
    name = data.get("name")
    if name is not None and not name_ok(name):
        raise Problem.field(t, "name", "names")

    def change(game: Game) -> dict[str, Any]:
        seat = seat_of(game, token, t, required=True)
        assert seat is not None
        ready(game, t)
        game.seen[seat] = time.time()
        game.join(seat, name)
        game.take_back(seat)
        return _view(request, game, seat)

    return await _change(request, t, change)


def _creator(game: Game, token: str | None, t: Translator) -> int:
    seat = seat_of(game, token, t, required=True)
    if seat != 0:
        raise Problem.of(t, 403, "creator-only")
    return seat


async def start(request: Request) -> Response:
    t, token, _ = await _asked(request, ())

    def change(game: Game) -> dict[str, Any]:
        seat = _creator(game, token, t)
        ready(game, t)
        if game.started:
            raise Problem.of(t, 409, "already-started")
        game.start()
        return _view(request, game, seat)

    return await _change(request, t, change)


async def leave(request: Request) -> Response:
    t, token, _ = await _asked(request, ())

    def change(game: Game) -> dict[str, Any]:
        seat = seat_of(game, token, t, required=True)
        assert seat is not None
        table_requests.leave(game, seat, t)
        return _view(request, game, seat)

    return await _change(request, t, change)


async def close(request: Request) -> Response:
    t, token, _ = await _asked(request, ())

    def change(game: Game) -> dict[str, Any]:
        seat = seat_of(game, token, t, required=True)
        table_requests.close(game, seat, t)
        return _view(request, game, seat)

    return await _change(request, t, change)


def _person(game: Game, token: str | None, t: Translator) -> int:
    """The seat of the request's key, a person still at the table (the caller holds the lock)."""
    seat = seat_of(game, token, t, required=True)
    assert seat is not None
    ready(game, t)
    if game.seats[seat].left:
        raise Problem.of(t, 409, "left")
    game.seen[seat] = time.time()
    return seat


async def next_deal(request: Request) -> Response:
    """``POST /api/games/{id}/next``: the key's person is ready for the next deal; the creator
    may start it at once (``{"now": true}``)."""
    t, token, data = await _asked(request, ("now",))
    now = data.get("now", False)
    if not isinstance(now, bool):
        raise Problem.field(t, "now", "boolean")

    def change(game: Game) -> dict[str, Any]:
        seat = _person(game, token, t)
        if now and seat != 0:
            raise Problem.of(t, 403, "creator-only")
        if not game.is_over:
            raise Problem.of(t, 409, "not-over")
        game.take_back(seat)
        game.ask_next(seat, at_once=now)
        return _view(request, game, seat)

    return await _change(request, t, change)


async def hand_over(request: Request) -> Response:
    """``POST /api/games/{id}/hand-over``: the creator hands an absent person's seat to the AI."""
    t, token, data = await _asked(request, ("seat",))
    given = data.get("seat")
    if not (is_int(given) and 0 < given < 3):
        raise Problem.field(t, "seat", "other-seat")
    target = given
    sockets = await _in_thread(request, _store(request).presence, request.path_params["game"])

    def change(game: Game) -> dict[str, Any]:
        seat = _creator(game, token, t)
        ready(game, t)
        state = game.seats[target]
        if not state.person or state.left or target in game.handed:
            raise Problem.of(t, 409, "not-a-person")
        if state.joined and (sockets[target] or time.time() - game.seen[target] < OFFLINE_SECONDS):
            raise Problem.of(t, 409, "still-here", seconds=int(OFFLINE_SECONDS))
        if not state.joined:  # never came: the AI plays for them from now on, until they do
            game.seats[target] = state.replace(joined=True)
        game.hand_over(target)
        if not game.started and all(s.joined for s in game.seats if s.person):
            game.start()
        return _view(request, game, seat)

    return await _change(request, t, change)


async def say(request: Request) -> Response:
    """``POST /api/games/{id}/say``: the key's person says a quick phrase."""
    t, token, data = await _asked(request, ("phrase",))
    phrase = data.get("phrase")
    if phrase not in PHRASE_IDS:
        raise Problem.field(t, "phrase", "phrase", names=", ".join(PHRASE_IDS))

    def change(game: Game) -> dict[str, Any]:
        seat = _person(game, token, t)
        if len(game.log) >= MOST_LOGGED // 2 or not game.say(seat, str(phrase), time.time()):
            raise Problem.of(t, 429, "too-many-phrases")
        return _view(request, game, seat)

    return await _change(request, t, change)


async def phrases(request: Request) -> Response:
    """``GET /api/phrases``: the quick phrases' ids and their text in the request's language."""
    lang = language(request)
    return answer({"lang": lang, "phrases": phrase_list(words(lang))})


async def hint(request: Request) -> Response:
    t = translator_for(request)
    token = _token(request, t)

    def read(game: Game) -> dict[str, Any]:
        seat = seat_of(game, token, t, required=True)
        assert seat is not None
        return game.hint(seat, _lang(request), _with_codes(request))

    return answer(await _read(request, t, read))


async def record(request: Request) -> Response:
    t = translator_for(request)
    number = request.query_params.get("deal")
    if number is not None and not (number.isascii() and number.isdigit() and 0 < len(number) < 6):
        raise Problem.field(t, "deal", "deal")

    def read(game: Game) -> dict[str, Any]:
        wanted = game.deal_number if number is None else int(number)
        if wanted != game.deal_number:
            first = game.deal_number - len(game.past)
            if not first <= wanted < game.deal_number:
                raise Problem.field(t, "deal", "deal")
            record: dict[str, Any] = game.past[wanted - first]["record"]
            return record
        if not game.is_over:
            raise Problem.of(t, 409, "in-progress")
        return game.record()

    saved = await _read(request, t, read)
    filename = f"kowah-{request.path_params['game'][:8]}.json"
    return Response(_json.dumps(saved, indent=1) + "\n", media_type="application/json",
                    headers={"content-disposition": f'attachment; filename="{filename}"'})
