"""The coach: its advice is hard's choice, its figures agree with kowah.hands, and the terminal shows it."""

from __future__ import annotations

import copy
import io
import pickle
import random
import re
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from kowah import Action, ActionKind, Deal, Observation, parse_cards
from kowah.cards import Card
from kowah.coach import Advice, DiscardAdvice, TakeAdvice, WaitAdvice, advise, describe
from kowah.errors import KowahError, KowahTypeError
from kowah.hands import distance, improvements, waits
from kowah.i18n import LANGUAGES, translator
from kowah.players import HardPlayer, make_player
from kowah.terminal import play_in_terminal


def _observations(seeds: range) -> list[Observation]:
    """Every observation of a seat that must choose, in deals of hard, normal and easy."""
    found = []
    for seed in seeds:
        deal = Deal.shuffled(500 + seed)
        players = [make_player(name, random.Random(seed)) for name in ("hard", "normal", "easy")]
        while not deal.is_over:
            seat = deal.to_move()[0]
            observation = deal.observation(seat)
            found.append(observation)
            deal.apply(players[seat].choose(observation, observation.legal_actions))
    return found


OBSERVATIONS = _observations(range(15))


def test_the_advice_is_what_hard_does() -> None:
    differ = 0
    for observation in OBSERVATIONS:
        advice = advise(observation)
        legal = observation.legal_actions
        assert advice.seat == observation.seat and advice.action in legal
        # Hard breaks exact ties at random: its choice is one of the discards marked best.
        chosen = {HardPlayer(random.Random(seed)).choose(observation, legal) for seed in range(4)}
        if advice.discards:
            best = {Action.discard(observation.seat, option.card)
                    for option in advice.discards if option.best}
            assert chosen <= best and advice.action in best
            assert advice.discards[0].best
            differ += len(best) > 1
        else:
            assert chosen == {advice.action}
    assert differ > 0


def test_each_discard_is_described_as_kowah_hands_would() -> None:
    checked = 0
    for observation in OBSERVATIONS:
        advice = advise(observation)
        options = {action.card for action in observation.legal_actions if action.kind is ActionKind.DISCARD}
        assert {option.card for option in advice.discards} == options
        if not advice.discards:
            continue
        declared = {wait for seat, wait in enumerate(observation.declared_waits)
                    if wait is not None and seat != observation.seat}
        for option in advice.discards:
            rest = list(observation.hand)
            rest.remove(option.card)
            assert option.distance == distance(rest)
            # The discarded copy is seen once it lies in the discards.
            helping = improvements(rest, (*observation.seen(), option.card))
            assert option.improving == (0 if option.distance == 0 else sum(helping.values()))
            assert {wait.card for wait in option.waits} == set(waits(rest))
            assert option.feeds == (option.card in declared)
            checked += 1
        assert advice.distance == min(option.distance for option in advice.discards)
    assert checked > 300


def test_declarations_list_each_wait_with_its_live_copies() -> None:
    found = 0
    for observation in OBSERVATIONS:
        advice = advise(observation)
        declares = [action.card for action in observation.legal_actions
                    if action.kind is ActionKind.DECLARE and action.card is not None]
        assert [wait.card for wait in advice.waits] == sorted(
            declares, key=lambda card: (-observation.unseen().get(card, 0), card))
        for wait in advice.waits:
            assert wait.live == observation.unseen().get(wait.card, 0)
        found += bool(advice.waits)
    assert found > 5


def test_takes_say_whether_taking_improves() -> None:
    seen = {True: 0, False: 0}
    for observation in OBSERVATIONS:
        advice = advise(observation)
        can_take = any(action.kind is ActionKind.TAKE for action in observation.legal_actions)
        assert (advice.take is not None) == can_take
        if advice.take is None:
            continue
        assert advice.take.card == observation.latest_discard
        grown = [*observation.hand, advice.take.card]
        nearer = min(distance(grown[:i] + grown[i + 1:]) for i in range(9) if i != 8) < distance(
            observation.hand)
        assert advice.take.improves == nearer
        assert advice.action == (Action.take(observation.seat) if nearer else Action.draw(observation.seat))
        seen[advice.take.improves] += 1
    assert seen[True] > 0 and seen[False] > 0


def test_a_seat_with_nothing_to_do_gets_no_action() -> None:
    deal = Deal.shuffled(seed=3)
    idle = (deal.turn + 1) % 3
    advice = advise(deal.observation(idle))
    assert advice == Advice(idle, None, distance(deal.hand(idle)))
    assert describe(advice, translator("en")) == ["Hint: there is nothing to do now."]


def test_advice_values_are_frozen() -> None:
    advice = advise(OBSERVATIONS[1])
    for value in (advice, WaitAdvice(Card.C5, 1), TakeAdvice(Card.C5, True),
                  DiscardAdvice(Card.C5, 1, 3, (), False, True)):
        field = attrs.fields(type(value))[0].name
        with pytest.raises(AttributeError, match="immutable"):
            setattr(value, field, 2)
        assert hash(value) == hash(pickle.loads(pickle.dumps(value)))
        assert pickle.loads(pickle.dumps(value)) == value and copy.copy(value) is value


def _any(value: object) -> Any:
    """*value*, typed so that a test may pass it where the API wants something else."""
    return value


@pytest.mark.parametrize(("build", "error"), [
    (lambda: WaitAdvice(_any("5c"), 1), KowahTypeError), (lambda: WaitAdvice(Card.C5, -1), KowahError),
    (lambda: WaitAdvice(Card.C5, True), KowahTypeError),
    (lambda: TakeAdvice(Card.C5, _any(1)), KowahTypeError),
    (lambda: DiscardAdvice(Card.C5, 1, 3, _any([]), False, True), KowahTypeError),
    (lambda: DiscardAdvice(Card.C5, 1, 3, _any((Card.C5,)), False, True), KowahTypeError),
    (lambda: Advice(0, _any("draw"), 1), KowahTypeError), (lambda: Advice(-1, None, 1), KowahError),
])
def test_advice_cannot_be_built_invalid(build: Callable[[], object], error: type[Exception]) -> None:
    with pytest.raises(error):
        build()


def _ready_then_stray() -> Deal:
    hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c 1m")
    rest = list(Deal.shuffled(0).deck)
    for card in hand:
        rest.remove(card)
    deal = Deal([*hand[:8], *rest[:16], hand[8], *rest[16:]], 0)
    deal.apply(Action.draw(0))
    return deal


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_advice_in_words(language: str) -> None:
    t = translator(language)
    english = translator("en")
    deal = _ready_then_stray()
    lines = describe(advise(deal.observation(0)), t)
    assert lines[0] == t.gettext("coach", "Hint: discard {card}.").format(card=t.card(Card.M1, "object"))
    assert t.card(Card.M1) in lines[1] and t.card(Card.C5) in lines[1] and t.card(Card.S5) in lines[1]
    if language != "en":
        assert lines[0] != english.gettext("coach", "Hint: discard {card}.").format(card="1m")
        assert lines[2:] != describe(advise(deal.observation(0)), english)[2:]
    deal.apply(Action.discard(0, Card.M1))
    lines = describe(advise(deal.observation(0)), t)
    assert t.card(Card.C5, "object") in lines[0] or t.card(Card.S5, "object") in lines[0]
    assert t.card(Card.C5) in lines[1] and t.card(Card.S5) in lines[1]
    for line in lines:  # names, never codes
        assert not re.search(r"\b([1-9][csm]|ot|rf|wf)\b", line), line
    coded = describe(advise(deal.observation(0)), translator(language, codes=True))
    assert "(5c)" in coded[1] and "(5s)" in coded[1]


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Hint: discard the One of Myriads."),
    ("it", "Consiglio: scarta l'asso di miriadi."),
    ("cs", "Rada: odhoďte jedničku myriád."),
    ("ms", "Petua: buang as laksa."),
    ("es", "Pista: descarta el as de miríadas."),
])
def test_the_hint_names_the_card(language: str, expected: str) -> None:
    assert describe(advise(_ready_then_stray().observation(0)), translator(language))[0] == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_terminal_hint_command(language: str) -> None:
    from kowah.keys import terminal_letters

    t = translator(language)
    word = t.gettext("cli", "hint")
    out = io.StringIO()
    seed = next(seed for seed in range(100) if Deal.shuffled(random.Random(seed)).first == 0)
    play_in_terminal(t, seed=seed, opponents="easy", record_path=None,
                     stdin=io.StringIO(f"{word}\nd\n{terminal_letters(t)['hint']}\nquit\n"), stdout=out,
                     color=False, pace=0,
                     width=500)
    text = out.getvalue()
    # The opening draw is forced; at the discard, the word and the letter both give the hint.
    hint = t.gettext("coach", "Hint: discard {card}.").split("{card}")[0]
    assert text.count(hint) == 2
    deal = Deal.shuffled(random.Random(seed))
    deal.apply(Action.draw(0))
    for line in describe(advise(deal.observation(0)), t):
        assert text.count(line) == 2
    assert t.gettext("player", "easy") in text
    help_out = io.StringIO()
    play_in_terminal(t, seed=seed, opponents="hard", record_path=None, stdin=io.StringIO("?\nquit\n"),
                     stdout=help_out, color=False, pace=0)
    letter = terminal_letters(t)["hint"]  # the language's letter, as the help shows it
    help_line = t.gettext("cli", "  hint, {hint_key}            what the hard AI would do now, and why")
    assert help_line.format(hint_key=letter) in help_out.getvalue()


def test_the_coach_knows_the_money_pack() -> None:
    from kowah import MONEY_RULES

    checked = 0
    for seed in range(4):
        deal = Deal.shuffled(seed, rules=MONEY_RULES)
        players = [make_player("hard", random.Random(seed + seat)) for seat in range(3)]
        while not deal.is_over:
            seat = deal.to_move()[0]
            observation = deal.observation(seat)
            advice = advise(observation)
            for option in advice.discards:
                rest = list(observation.hand)
                rest.remove(option.card)
                assert option.distance == distance(rest, MONEY_RULES.pack)
                assert {wait.card for wait in option.waits} == set(waits(rest, MONEY_RULES.pack))
                checked += 1
            deal.apply(players[seat].choose(observation, observation.legal_actions))
    assert checked > 50


def test_the_advice_as_json() -> None:
    import json

    for observation in OBSERVATIONS[:200]:
        advice = advise(observation)
        data = json.loads(json.dumps(advice.as_dict()))
        assert data["seat"] == advice.seat and data["distance"] == advice.distance
        assert (data["action"] is None) == (advice.action is None)
        if advice.action is not None:
            assert Action.from_dict(data["action"]) == advice.action
        codes = [str(option.card) for option in advice.discards]
        assert [entry["card"] for entry in data["discards"]] == codes
        for entry, option in zip(data["discards"], advice.discards, strict=True):
            assert (entry["distance"], entry["improving"], entry["feeds"], entry["best"]) == (
                option.distance, option.improving, option.feeds, option.best)
            assert entry["waits"] == [{"card": str(wait.card), "live": wait.live} for wait in option.waits]
        assert data["waits"] == [{"card": str(wait.card), "live": wait.live} for wait in advice.waits]
        assert data["take"] == (None if advice.take is None else
                                {"card": str(advice.take.card), "improves": advice.take.improves})
