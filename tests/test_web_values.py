"""The web's public values (:class:`Settings`, :class:`Seat`, :class:`TableEvent`) behave as
every value of the library: checked when built (by ``replace`` and unpickling too), equal by
their fields, immutable, picklable."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")

from kowah.errors import KowahError, KowahTypeError
from kowah.web.app import Settings
from kowah.web.game import Game
from kowah.web.saved import GameError, restore, saved_data
from kowah.web.seats import Seat, TableEvent, TableEventKind, new_key

KEY = new_key()
VALUES = [Settings(host="0.0.0.0", port=8080, allow_hosts=["cards.example"], idle_timeout=60),
          Seat(person=True, token=KEY, name="Ana", joined=True),
          Seat(person=False),
          TableEvent(TableEventKind.LEAVE, 2, 17)]
CHANGES: dict[type, dict[str, Any]] = {Settings: {"port": 9090}, Seat: {"name": "Bo"},
                                       TableEvent: {"at": 18}}


@pytest.mark.parametrize("value", VALUES, ids=lambda value: type(value).__name__)
def test_a_web_value_compares_hashes_copies_and_pickles_by_its_fields(value: Any) -> None:
    again = pickle.loads(pickle.dumps(value))
    assert again == value and hash(again) == hash(value) and again is not value
    assert copy.copy(value) is value and copy.deepcopy(value) is value
    assert value.replace() == value
    field = attrs.fields(type(value))[0].name
    with pytest.raises(AttributeError, match="immutable"):
        setattr(value, field, None)
    changed = value.replace(**CHANGES[type(value)])
    assert changed != value and changed == pickle.loads(pickle.dumps(changed))


def test_settings_are_checked_when_built_and_replaced() -> None:
    settings = Settings()
    assert settings.port is None and settings.allow_hosts == () and settings.idle_timeout == 86400.0
    assert Settings(allow_origins=["https://cards.example"]).allow_origins == ("https://cards.example",)
    assert settings.replace(port=80) == Settings(port=80) != settings
    bad: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"port": 0}, KowahError, "port must be from 1 to 65535, not 0"),
        ({"port": "80"}, KowahTypeError, "port must be an int"),
        ({"port": True}, KowahTypeError, "port must be an int"),
        ({"host": None}, KowahTypeError, "host must be text"),
        ({"allow_hosts": "cards.example"}, KowahTypeError, "allow_hosts must be a sequence of text"),
        ({"allow_origins": [1]}, KowahTypeError, "allow_origins must be a sequence of text"),
        ({"max_body": 0}, KowahError, "max_body must be at least 1, not 0"),
        ({"max_actions": 2.5}, KowahTypeError, "max_actions must be an int"),
        ({"max_new_per_minute": -1}, KowahError, "max_new_per_minute must be at least 1"),
        ({"idle_timeout": 0}, KowahError, "idle_timeout must be a number of seconds above 0"),
        ({"idle_timeout": float("nan")}, KowahError, "idle_timeout"),
        ({"idle_timeout": "1"}, KowahTypeError, "idle_timeout"),
    ]
    for fields, error, message in bad:
        with pytest.raises(error, match=message):
            Settings(**fields)
        with pytest.raises(error, match=message):
            settings.replace(**fields)
    with pytest.raises(KowahTypeError, match="Settings has no field 'colour'"):
        settings.replace(colour="red")


def test_a_seat_is_checked_and_never_shows_its_key() -> None:
    seat = Seat(person=True, token=KEY)
    assert KEY not in repr(seat) and KEY not in str(seat.replace(joined=True))
    assert seat.as_dict() == {"person": True, "token": KEY, "name": None, "joined": False, "left": False}
    assert Seat(**seat.as_dict()) == seat
    bad: list[tuple[dict[str, Any], type[Exception], str]] = [
        ({"person": 1, "token": KEY}, KowahTypeError, "person must be True or False"),
        ({"person": True, "token": KEY, "left": None}, KowahTypeError, "left must be True or False"),
        ({"person": True}, KowahError, "a person's seat has a key"),
        ({"person": False, "token": KEY}, KowahError, "an AI's seat has none"),
        ({"person": True, "token": "short"}, KowahError, "a seat's key must be 16 to 64"),
        ({"person": True, "token": KEY + "/"}, KowahError, "a seat's key must be"),
        ({"person": True, "token": 12}, KowahTypeError, "token must be text"),
        ({"person": True, "token": KEY, "name": " "}, KowahError, "a person's name must be 1 to 24"),
        ({"person": True, "token": KEY, "name": "x" * 25}, KowahError, "a person's name"),
    ]
    for fields, error, message in bad:
        with pytest.raises(error, match=message) as raised:
            Seat(**fields)
        assert KEY not in str(raised.value)
    with pytest.raises(KowahError, match="a person's seat has a key"):
        seat.replace(token=None)


def test_a_table_event_is_checked() -> None:
    assert TableEvent("timeout", None, 0).kind is TableEventKind.TIMEOUT
    bad: list[tuple[tuple[Any, ...], type[Exception], str]] = [
        (("sit", 0, 1), KowahError, "kind must be one of join, start, leave, timeout, close, ready, "
                                    "hand-over, take-back, phrase, not 'sit'"),
        ((TableEventKind.PHRASE, 1, 1), KowahError, "phrase must be one of hello"),
        ((TableEventKind.JOIN, 1, 1, "thanks"), KowahError, "phrase must be one of hello"),
        ((TableEventKind.JOIN, 3, 1), KowahError, "seat must be from 0 to 2, not 3"),
        ((TableEventKind.JOIN, "1", 1), KowahTypeError, "seat must be an int"),
        ((TableEventKind.JOIN, 1, -1), KowahError, "at must be at least 0, not -1"),
        ((TableEventKind.JOIN, 1, None), KowahTypeError, "at must be an int"),
    ]
    for fields, error, message in bad:
        with pytest.raises(error, match=message):
            TableEvent(*fields)


def test_a_saved_game_with_a_bad_seat_or_log_entry_is_not_restored() -> None:
    game = Game.new(seed=3, opponents="random", humans=2)
    game.join(1, "Bo")
    assert restore(saved_data(game)).seats == game.seats
    changes: list[tuple[Callable[[dict[str, Any]], object], str]] = [
            (lambda extra: extra["seats"][2].update(token=KEY), "bad seat: a person's seat has a key"),
            (lambda extra: extra["seats"][1].update(name="\n"), "bad seat: a person's name"),
            (lambda extra: extra["log"].append([0, "sit", None]), "bad log entry: kind must be one of"),
            (lambda extra: extra["log"].append([0, "join", 5]), "bad log entry: seat must be from 0 to 2")]
    for change, reason in changes:
        saved = saved_data(game)
        change(saved["kowah-web"])
        with pytest.raises(GameError, match=reason):
            restore(saved)
