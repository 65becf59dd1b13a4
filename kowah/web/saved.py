"""The saved form of a game, the one module that knows it: :func:`saved_text` writes a game as
the store keeps it, :func:`restore` reads it back (or the first edition's files), every value
checked as a new game's would be, and anything else refused with :class:`GameError` and its
reason.

>>> from kowah.web.game import Game
>>> game = Game.new(seed=3, opponents="random")
>>> restore(saved_data(game)).state(seat=0) == game.state(seat=0)
True
>>> restore([1, 2, 3])
Traceback (most recent call last):
...
kowah.web.saved.GameError: not a JSON object but list
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from typing import Any, cast

from kowah.actions import SEATS
from kowah.errors import N_, KowahError
from kowah.i18n import LANGUAGES
from kowah.record import Record
from kowah.web.ai_players import offered
from kowah.web.answers import encode_text
from kowah.web.game import ID_PATTERN, TURN_SECONDS, Game, game_result
from kowah.web.seats import Seat, TableEvent

__all__ = ["MOST_LOGGED", "GameError", "Written", "restore", "saved_data", "saved_text"]

#: The most table events a deal's saved log may hold (joins, phrases, hand-overs …).
MOST_LOGGED = 10_000


class GameError(KowahError):
    """A saved game that cannot be restored, a :class:`~kowah.errors.KowahError` like every
    error of the library; *reason* says why, in English (for the log).

    >>> import pickle
    >>> error = pickle.loads(pickle.dumps(GameError("bad seed")))
    >>> str(error), error.reason, isinstance(error, KowahError)
    ('bad seed', 'bad seed', True)
    """

    def __init__(self, reason: str) -> None:
        super().__init__(N_("error", "a saved game cannot be read back: {reason}"), reason=reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason,))


# -- writing ------------------------------------------------------------------------------------

class Written:
    """A game's saved text in parts (:attr:`Game.written <kowah.web.game.Game.written>`): the
    record's text before its actions, each action's text, and the earlier deals' text, made
    once: the deck does not change, the history only grows, earlier deals stay as they were."""

    __slots__ = ("actions", "head", "past", "past_count")

    def __init__(self) -> None:
        self.head: str | None = None
        self.actions: list[str] = []
        self.past: str | None = None
        self.past_count = 0


def _extra(game: Game) -> dict[str, Any]:
    """The keys beside the record that restore the game exactly."""
    return {
        "edition": 2, "id": game.id, "seed": game.seed, "opponents": game.opponents,
        "lang": game.lang, "created": game.created, "updated": game.updated,
        "requests": game.requests, "owner": game.owner, "turn_seconds": game.turn_seconds,
        "deadline": game.deadline, "started": game.started, "closed": game.closed,
        "seats": [seat.as_dict() for seat in game.seats],
        "log": [[event.at, event.kind.value, event.seat]
                + ([] if event.phrase is None else [event.phrase]) for event in game.log],
        "deal_number": game.deal_number, "offset": game.offset, "ready": sorted(game.ready),
        "handed": sorted(game.handed), "timeouts": game.timeouts, "seen": game.seen,
    }


def saved_text(game: Game) -> str:
    """*game* as the store keeps it (the caller holds its lock), a JSON object: the deal's
    ``kowah-record/1`` (without tags) plus a ``"kowah-web"`` object of the keys that restore
    the game exactly (readers of records ignore it). Made whole once, then only the new
    actions are written (:class:`Written`)."""
    written = game.written
    if written is None:
        written = game.written = Written()
    history = game.deal.history
    actions = written.actions
    if written.head is None or len(actions) > len(history):
        record = dict(Record.from_deal(game.deal).to_dict())
        for key in ("actions", "passed", "tags"):
            record.pop(key, None)
        written.head = encode_text(record)[:-1] + ',"actions":['
        actions.clear()
    actions.extend(encode_text(action.to_dict()) for action in history[len(actions):])
    passed = ',"passed":true' if game.passed and game.deal.outcome is None else ""
    if written.past is None or written.past_count != len(game.past):
        written.past, written.past_count = encode_text(game.past), len(game.past)
    extra = encode_text(_extra(game))[:-1] + f',"past":{written.past}}}'
    return f'{written.head}{",".join(actions)}]{passed},"kowah-web":{extra}}}'


def saved_data(game: Game) -> dict[str, Any]:
    """:func:`saved_text` read back: the record plus the keys that restore the game."""
    data: dict[str, Any] = json.loads(saved_text(game))
    return data


# -- reading ------------------------------------------------------------------------------------


def restore(data: object) -> Game:
    """The game that :func:`saved_text` wrote (or the first
    edition's file): the record replayed, the AIs as they were; every value checked as a new
    game's would be.

    Raises :class:`GameError` (with the reason) for anything else.
    """
    try:
        return _restore(data)
    except GameError:
        raise
    except KowahError as error:
        raise GameError(f"the record cannot be replayed: {error}") from None
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError) as error:
        raise GameError(f"unreadable: {type(error).__name__}: {error}"[:300]) from None


def _restore(data: object) -> Game:
    if not isinstance(data, Mapping):
        raise GameError(f"not a JSON object but {type(data).__name__}")
    extra = data.get("kowah-web")
    if not isinstance(extra, Mapping):
        raise GameError("no 'kowah-web' object")
    game_id, opponents, lang = extra.get("id"), extra.get("opponents"), extra.get("lang")
    seed = extra.get("seed")
    if not (isinstance(game_id, str) and ID_PATTERN.match(game_id)):
        raise GameError("bad id")
    if not (isinstance(opponents, str) and opponents in offered()):
        raise GameError(f"unknown opponents {str(opponents)[:20]!r}")
    if lang not in LANGUAGES:
        raise GameError(f"unknown language {str(lang)[:20]!r}")
    if not (type(seed) is int and abs(seed) < 2**63):
        raise GameError("bad seed")
    turn_seconds = extra.get("turn_seconds")
    if turn_seconds is not None and not (
            type(turn_seconds) is int and TURN_SECONDS[0] <= turn_seconds <= TURN_SECONDS[1]):
        raise GameError("bad turn_seconds")
    record = Record.from_dict(data)
    deal = record.replay()
    if extra.get("edition") == 2:
        seats = [_seat(item) for item in _list(extra.get("seats"), SEATS, "seats")]
        if not seats[0].person:
            raise GameError("seat 0 is not a person's")
        keys = [seat.token for seat in seats if seat.token is not None]
        if len(set(keys)) != len(keys):
            raise GameError("two seats share a key")
        logged = _list(extra.get("log"), None, "log", MOST_LOGGED)
        log = [_table_event(item, len(deal.events)) for item in logged]
        started, closed = extra.get("started"), extra.get("closed")
        if not (isinstance(started, bool) and isinstance(closed, bool)):
            raise GameError("bad started or closed")
    else:  # the first edition: one person, whose game id was its only key
        seats = [Seat(person=True, token=game_id, joined=True), Seat(False), Seat(False)]
        log, started, closed = [], True, False
    created = _number(extra.get("created", time.time()), "created")
    game = Game(game_id, deal, seed=seed, opponents=opponents, lang=str(lang), seats=seats,
            turn_seconds=turn_seconds, started=started, closed=closed, log=log,
            created=created, owner=str(extra.get("owner", ""))[:64])
    game.passed = record.passed
    game.updated = _number(extra.get("updated", created), "updated")
    requests = extra.get("requests", 0)
    if type(requests) is int:  # the budget was the game's before it was each seat's
        requests = [0] * SEATS
    if isinstance(requests, list) and len(requests) == SEATS \
            and all(type(count) is int and count >= 0 for count in requests):
        game.requests = list(requests)
    else:
        raise GameError("bad requests")
    _evening(game, extra)
    deadline = extra.get("deadline")
    game.advance(game.updated)  # a crash between an action and the AIs' replies: they reply now
    if deadline is not None and game.deadline is not None:
        game.deadline = _number(deadline, "deadline")
    return game

def _seats(value: object, what: str) -> set[int]:
    if not (isinstance(value, list) and all(type(seat) is int and 0 <= seat < SEATS for seat in value)):
        raise GameError(f"bad {what}")
    return set(value)


def _evening(game: Game, extra: Mapping[str, Any]) -> None:
    """The table's deals before this one, and who is ready, away or late (absent before the
    table played deal after deal: its first deal)."""
    number, offset = extra.get("deal_number", 1), extra.get("offset", 0)
    if not (type(number) is int and number >= 1 and type(offset) is int and offset >= 0):
        raise GameError("bad deal_number or offset")
    past = _list(extra.get("past", []), None, "past")
    for item in past:
        if not (isinstance(item, dict) and set(item) == {"winner", "kind", "multiplier", "card", "record"}):
            raise GameError("bad past deal")
        outcome = Record.from_dict(item["record"]).replay().outcome
        if outcome is None or item != {**game_result(outcome), "record": item["record"]}:
            raise GameError("a past deal's result is not its record's")
    game.deal_number, game.offset, game.past = number, offset, list(past)
    game.ready = _seats(extra.get("ready", []), "ready")
    game.handed = _seats(extra.get("handed", []), "handed")
    for field in ("timeouts", "seen"):
        values = extra.get(field, [0] * SEATS)
        if not (isinstance(values, list) and len(values) == SEATS
                and all(type(value) in (int, float) and 0 <= value < 1e11 for value in values)):
            raise GameError(f"bad {field}")
        setattr(game, field, [int(value) for value in values] if field == "timeouts"
                else [float(value) for value in values])


def _list(value: object, length: int | None, what: str, most: int = 64) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length) or len(value) > most:
        raise GameError(f"bad {what}")
    return value


def _number(value: object, what: str) -> float:
    if type(value) not in (int, float) or not 0 <= cast(float, value) < 1e11:
        raise GameError(f"bad {what}")
    return float(cast(float, value))


def _seat(item: object) -> Seat:
    if not isinstance(item, Mapping) or set(item) != {"person", "token", "name", "joined", "left"}:
        raise GameError("bad seat")
    try:
        return Seat(**item)
    except KowahError as error:
        raise GameError(f"bad seat: {error}") from None


def _table_event(item: object, most: int) -> TableEvent:
    if not (isinstance(item, list) and len(item) in (3, 4) and type(item[0]) is int and item[0] <= most):
        raise GameError("bad log entry")
    try:
        return TableEvent(item[1], item[2], item[0], *item[3:])
    except KowahError as error:
        raise GameError(f"bad log entry: {error}") from None
