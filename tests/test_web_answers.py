"""The answers' JSON: the fast encoder (orjson) writes the very bytes the standard library's
json writes, for every state of whole deals, and the server answers the same without it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

pytest.importorskip("starlette")

from hypothesis import given, settings
from hypothesis import strategies as st
from webtools import client, key, new_game, play_out

from kowah.i18n import LANGUAGES
from kowah.web import answers
from kowah.web.game import Game
from kowah.web.problems import Problem
from kowah.web.text import words


def _same(data: Any) -> None:
    assert answers.FAST is not None, "the web extra installs orjson"
    fast, standard = answers.FAST(data), answers.encode_standard(data)
    assert fast == standard, (fast[:200], standard[:200])
    assert answers.encode(data) == fast


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), lang=st.sampled_from(sorted(LANGUAGES)),
       humans=st.integers(1, 3), codes=st.booleans())
def test_both_encoders_write_every_state_of_a_deal_alike(seed: int, lang: str, humans: int,
                                                         codes: bool) -> None:
    rng = random.Random(seed)
    game = Game.new(seed=seed, opponents="normal", lang=lang, humans=humans,
                    names=["Zdeněk", "Ñandú"][:humans], turn_seconds=60)
    for seat in range(1, humans):
        game.join(seat)
    steps = 0
    while not game.is_over:
        actor = game.actor
        assert actor is not None
        after = game.version
        game.act(rng.choice(game.legal(actor)), now=1_764_000_000.25 + steps)
        steps += 1
        viewer: int | None
        for viewer in (None, 0, 1, 2):
            _same(game.state(lang, after, seat=viewer, now=1_764_000_001.0 + steps,
                             base_url="http://127.0.0.1:8000", codes=codes))
        for seat in range(3):
            if game.legal(seat):
                _same(game.hint(seat, lang, codes))
    _same(game.record())
    _same(game.state(lang, 0, seat=0, codes=codes))


@pytest.mark.parametrize("data", [
    {}, [], {"n": 2**70}, {"big": -(2**64)}, {1: "one", "t": (1.5, 1764000000.25, -0.0, 1e300)},
    {"text": "Příliš žluťoučký kůň \u2028 \"quoted\" \\ \x00 \x1f"}, [True, False, None, 0],
])
def test_both_encoders_write_odd_values_alike(data: Any) -> None:
    _same(data)


def test_a_float_with_an_exponent_may_be_written_otherwise_but_reads_the_same() -> None:
    data = {"small": 1e-7, "large": 1.5e17}
    assert answers.FAST is not None
    assert answers.FAST(data) == b'{"small":1e-7,"large":1.5e+17}'
    assert answers.encode_standard(data) == b'{"small":1e-07,"large":1.5e+17}'
    assert json.loads(answers.FAST(data)) == json.loads(answers.encode_standard(data)) == data


def test_an_error_answer_is_written_alike() -> None:
    problem = Problem.of(words("cs"), 409, "stale", version=3, after=2)
    _same(problem.body())
    assert problem.response().body == answers.encode_standard(problem.body())


def test_without_orjson_the_server_answers_the_same_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    bodies: dict[bool, list[bytes]] = {}
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(answers, "FAST", None)
        with client() as c:
            state = new_game(c, seed=11, opponents="normal", lang="cs")
            headers = key(state)
            final = play_out(c, state, headers)
            seen = [c.get(f"/api/games/{final['id']}", headers=headers).content,
                    c.get(f"/api/games/{final['id']}").content,
                    c.get(f"/api/games/{final['id']}/record").content,
                    c.post(f"/api/games/{final['id']}/actions", json={"do": "draw", "after": 0},
                           headers=headers).content]
            bodies[fast] = [body.replace(final["id"].encode(), b"ID") for body in seen]
    assert bodies[True] == bodies[False]
    assert b'"outcome":{' in bodies[True][0] and b"\xc5" in bodies[True][0]  # Czech, in UTF-8
