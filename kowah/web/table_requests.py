"""A table's requests handled without Starlette: each check of the JSON API, in the API's
order, and the change it asks for. The served API's endpoints (:mod:`kowah.web.api`) and the
static site's Worker (:mod:`kowah.site.solo`) both call these, so that they refuse the same
requests in the same order with the same answers; each refusal is a
:class:`~kowah.web.problems.Problem` (raised inside a store change, it leaves the game as it
was).

>>> from kowah.web.text import words
>>> t = words("en")
>>> game = new_game({"seed": 7, "opponents": "random"}, t, "en", owner="doc")
>>> token = bearer_key(f"Bearer {game.seats[0].token}", t)
>>> seat = seat_of(game, token, t, required=True)
>>> act(game, seat, {"do": "discard", "card": "zz", "after": game.version}, t, limit=10)
Traceback (most recent call last):
...
kowah.web.problems.Problem: The request is not valid: 'card' must be a card code, not 'zz'
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any, TypeGuard

from kowah.actions import Action
from kowah.cards import KOWAH_DECK, Card
from kowah.errors import KowahError
from kowah.i18n import LANGUAGES, Translator
from kowah.web.ai_players import offered
from kowah.web.game import TURN_SECONDS, Game
from kowah.web.problems import ERRORS, MORE_ERRORS, Problem
from kowah.web.seats import name_ok

__all__ = ["ACTION_FIELDS", "NEW_FIELDS", "act", "bearer_key", "check_fields", "close", "is_int",
           "json_object", "leave", "new_game", "ready", "seat_of", "since", "too_large"]

#: The fields of ``POST /api/games``.
NEW_FIELDS = ("lang", "opponents", "seed", "deck", "first", "humans", "names", "start",
              "turn_seconds")
#: The fields of ``POST /api/games/{id}/actions``.
ACTION_FIELDS = ("do", "card", "wait", "seat", "after")


def is_int(value: object) -> TypeGuard[int]:
    """Whether *value* is a JSON whole number (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def too_large(t: Translator, limit: int) -> Problem:
    """The answer to a body larger than *limit* bytes (413)."""
    return Problem.of(t, 413, "too-large", limit=limit)


def json_object(body: bytes | str, t: Translator) -> dict[str, Any]:
    """The request body's JSON object (``{}`` for an empty body); its size already checked."""
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        raise Problem.of(t, 400, "bad-json") from None
    if not isinstance(data, dict):
        raise Problem.of(t, 400, "not-an-object")
    return data


def check_fields(data: dict[str, Any], allowed: tuple[str, ...], t: Translator) -> None:
    """Refuse a field not in *allowed* (400)."""
    for key in data:
        if key not in allowed:
            raise Problem.of(t, 400, "unknown-field", field=str(key)[:40])


def bearer_key(authorization: str | None, t: Translator) -> str | None:
    """The request's key: ``None`` without an ``Authorization`` header; 401 for another scheme."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem.of(t, 401, "bad-key", headers={"www-authenticate": "Bearer"})
    return token.strip()


def since(text: str | None, t: Translator) -> int:
    """``?since=``: the version the client has (0 when not given)."""
    text = "0" if text is None else text
    if not (text.isascii() and text.isdigit() and len(text) < 10):
        raise Problem.field(t, "since", "since")
    return int(text)


def seat_of(game: Game, token: str | None, t: Translator, *, required: bool) -> int | None:
    """The seat of the request's key in *game* (the caller holds its lock)."""
    if token is None:
        if required:
            raise Problem.of(t, 401, "key-required", headers={"www-authenticate": "Bearer"})
        return None
    seat = game.seat_of(token)
    if seat is None:
        raise Problem.of(t, 401, "bad-key", headers={"www-authenticate": "Bearer"})
    return seat


def ready(game: Game, t: Translator) -> None:
    """Refuse changes to a closed game (409)."""
    if game.closed:
        raise Problem.of(t, 409, "closed")


def new_game(data: dict[str, Any], t: Translator, lang: str, owner: str,
             players: Sequence[str] | None = None, *, friends: bool = True) -> Game:
    """``POST /api/games``: the body's checks in order, then the new game. *players* are the
    opponents offered (default: the server's); without *friends* only a solo table is made
    (the static site's, which has no clock and shows no names)."""
    names_offered = tuple(offered() if players is None else players)
    check_fields(data, NEW_FIELDS, t)
    if "lang" in data and data["lang"] not in LANGUAGES:
        raise Problem.field(t, "lang", "language")
    opponents = data.get("opponents", "normal")
    if opponents not in names_offered:
        raise Problem.field(t, "opponents", "opponents", names=", ".join(names_offered))
    seed = data.get("seed")
    if seed is not None and not (is_int(seed) and abs(seed) < 2**63):
        raise Problem.field(t, "seed", "integer")
    first = data.get("first")
    if first is not None and not (is_int(first) and 0 <= first < 3):
        raise Problem.field(t, "first", "seat")
    humans = data.get("humans", 1)
    if not (is_int(humans) and 1 <= humans <= 3):
        raise Problem.field(t, "humans", "humans")
    names = data.get("names", [])
    if not (isinstance(names, list) and len(names) <= humans
            and all(name is None or name_ok(name) for name in names)):
        raise Problem.field(t, "names", "names")
    turn_seconds = data.get("turn_seconds")
    if turn_seconds is not None and not (
            is_int(turn_seconds) and TURN_SECONDS[0] <= turn_seconds <= TURN_SECONDS[1]):
        raise Problem.field(t, "turn_seconds", "turn_seconds")
    start = data.get("start", "when-full")
    if start not in ("now", "when-full"):
        raise Problem.field(t, "start", "start")
    if humans != 1 and not friends:  # friends play at a kowah serve table
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
    if not friends:
        names, turn_seconds = [], None
    try:
        return Game.new(seed=seed, opponents=str(opponents), lang=str(data.get("lang", lang)),
                        deck=cards, first=first, humans=humans, names=names,
                        start_now=start == "now", turn_seconds=turn_seconds, owner=owner)
    except KowahError as error:
        raise Problem.of(t, 400, "bad-request", problem=t.error(error), field="deck") from None


def act(game: Game, seat: int, data: dict[str, Any], t: Translator, limit: int,
        now: float | None = None) -> bool:
    """``POST …/actions`` by *seat* (the caller holds the lock; *data* has its whole-number
    ``after``): the seat's request budget of *limit*, the game's state, the version, the
    action's legality, then the action. ``True`` when the seat was taken back from the AI
    instead (the AI played meanwhile: the action is not made)."""
    data = dict(data)
    after = data.pop("after")
    game.requests[seat] += 1
    if game.requests[seat] > limit:
        raise Problem.of(t, 429, "too-many-actions")
    ready(game, t)
    if not game.started:
        raise Problem.of(t, 409, "not-started")
    if game.seats[seat].left:
        raise Problem.of(t, 409, "left")
    game.seen[seat] = time.time() if now is None else now
    if game.take_back(seat):
        return True
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
    return False


def leave(game: Game, seat: int, t: Translator) -> None:
    """``POST …/leave``: *seat*'s person leaves (an AI plays on), unless gone or the deal over."""
    ready(game, t)
    if not game.seats[seat].left and not game.is_over:
        game.leave(seat)


def close(game: Game, seat: int | None, t: Translator) -> None:
    """``POST …/close``: the creator (seat 0) closes the table."""
    if seat != 0:
        raise Problem.of(t, 403, "creator-only")
    if not game.closed:
        game.close()
