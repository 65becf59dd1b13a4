"""The library's values and errors: one behaviour for all (construction checks, equality,
hashing, one error on assignment, replace, copying and pickling), and the README's loop."""

from __future__ import annotations

import copy
import inspect
import pickle
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

import kowah
import kowah.errors
from kowah import (
    KOWAH_RULES,
    Action,
    Card,
    CardParseError,
    Deal,
    DrawnBy,
    IllegalActionError,
    KowahError,
    Outcome,
    Record,
    RecordError,
    Refusal,
    Rules,
    parse_cards,
)
from kowah.hands import discard_options, splits

README = Path(__file__).resolve().parent.parent / "README.md"


def _played(seed: int, steps: int) -> Deal:
    deal = Deal.shuffled(seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        legal = deal.legal_actions(deal.actor)
        deal.apply(legal[int(rng.random() * len(legal))])
    return deal


def _values() -> list[object]:
    """One value of every public value class of the rules layer."""
    deal = _played(5, 40)
    refusal = deal.why_illegal(Action.draw((deal.turn + 1) % 3))
    assert refusal is not None
    hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c 1m")
    return [
        kowah.KOWAH_DECK, KOWAH_RULES, Rules(no_progress_turns=7), Action.discard(1, Card.C5),
        Action.declare(2, None), refusal, deal.events[-1], Outcome.win(1, "discard", Card.RF),
        Outcome.drawn(DrawnBy.NO_PROGRESS), deal.observation(0), Record.from_deal(deal, tags={"a": "b"}),
        splits(hand[:8])[0], discard_options(hand)[0],
    ]


@pytest.mark.parametrize("value", _values(), ids=lambda value: type(value).__name__)
def test_every_value_behaves_alike(value: object) -> None:
    assert pickle.loads(pickle.dumps(value)) == value
    assert hash(pickle.loads(pickle.dumps(value))) == hash(value)
    assert copy.copy(value) is value and copy.deepcopy(value) is value  # it cannot change
    fields = type(value).__match_args__  # type: ignore[attr-defined]
    name = fields[0]
    with pytest.raises(AttributeError, match=f"{type(value).__name__} is immutable: cannot assign"):
        setattr(value, name, getattr(value, name))
    with pytest.raises(AttributeError):
        delattr(value, name)
    assert value.replace() == value  # type: ignore[attr-defined]
    assert repr(value).startswith(type(value).__name__) or type(value) is Action


def test_replace_checks_as_the_constructor_does() -> None:
    with pytest.raises(KowahError, match="at least 1"):
        KOWAH_RULES.replace(no_progress_turns=0)
    with pytest.raises(KowahError):
        Action.draw(0).replace(card=Card.C5)
    assert Action.discard(0, Card.C5).replace(seat=2) == Action.discard(2, Card.C5)


def _errors() -> list[KowahError]:
    """An instance of every error class of kowah.errors, each with its attributes set."""
    found: list[KowahError] = []
    for attempt in (lambda: parse_cards("5c zz"), lambda: Deal.shuffled(1).apply(Action.take(0)),
                    lambda: Record.loads('{"format": 1}'), lambda: Deal(None, 0),  # type: ignore[arg-type]
                    lambda: Action.parse("fly", seat=0), lambda: Deal.shuffled(1).apply("x"),  # type: ignore[arg-type]
                    lambda: kowah.is_ready([]), lambda: kowah.is_ready(None),  # type: ignore[arg-type]
                    lambda: Deal([], 0)):
        try:
            attempt()
        except KowahError as error:
            found.append(error)
    deal = Deal.shuffled(2)
    record = Record(deal.deck, deal.first, [Action.take(deal.first)])
    try:
        record.replay()
    except RecordError as error:
        assert isinstance(error.cause, IllegalActionError)
        found.append(error)
    return found


def test_every_error_class_pickles_and_round_trips() -> None:
    errors = _errors()
    classes = {cls for _, cls in inspect.getmembers(kowah.errors, inspect.isclass)
               if issubclass(cls, KowahError)}
    assert classes <= {type(error) for error in errors} | {KowahError}
    for error in errors:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert (again.template, again.params) == (error.template, error.params)
        assert vars(again) == vars(error) or isinstance(error, RecordError)
    parse = next(error for error in errors if isinstance(error, CardParseError))
    assert pickle.loads(pickle.dumps(parse)).token == "zz"
    illegal = next(error for error in errors if isinstance(error, IllegalActionError))
    assert pickle.loads(pickle.dumps(illegal)).refusal == illegal.refusal
    wrapped = next(error for error in errors if isinstance(error, RecordError) and error.cause)
    again = pickle.loads(pickle.dumps(wrapped))
    assert isinstance(again.cause, IllegalActionError) and again.cause.refusal == wrapped.cause.refusal  # type: ignore[union-attr]


def test_every_public_name_of_kowah_pickles() -> None:
    """Classes, functions and constants: all reachable by pickle, and every value an equal copy."""
    for name in kowah.__all__:
        value = getattr(kowah, name)
        if isinstance(value, type) and getattr(value, "__total__", None) is not None:
            continue  # a TypedDict names a dict shape; there is nothing to pickle
        assert pickle.loads(pickle.dumps(value)) == value, name


def test_a_refusals_fields_are_read_only_and_pickle() -> None:
    refusal = Refusal(kowah.Reason.NOT_A_WAIT, Action.declare(0, Card.C5),
                      {"card": Card.C5, "waits": (Card.S5, Card.M5)})
    assert str(refusal) == "5c is not a wait of this hand (waits: 5s 5m)"
    assert pickle.loads(pickle.dumps(refusal)) == refusal
    with pytest.raises(TypeError):
        refusal.params["card"] = Card.C1  # type: ignore[index]


# -- Deal: copies, equality, pickling -------------------------------------------------------------


@pytest.mark.parametrize("how", ["copy", "copy.copy", "copy.deepcopy", "pickle"])
def test_every_way_of_copying_a_deal_is_independent_and_equal(how: str) -> None:
    deal = _played(3, 1)
    before = deal.observation(1)
    copiers: dict[str, Callable[[Deal], Deal]] = {
        "copy": Deal.copy, "copy.copy": copy.copy, "copy.deepcopy": copy.deepcopy,
        "pickle": lambda d: pickle.loads(pickle.dumps(d))}
    clone = copiers[how](deal)
    assert clone == deal and clone is not deal
    clone.apply(clone.legal_actions(clone.actor)[0])
    assert clone != deal
    # The original is untouched, and its observation is not stale.
    assert deal.observation(1) is before and deal.observation(1).legal_actions == deal.legal_actions(1)
    assert deal.stock_count == before.stock_count
    clone.undo()
    assert clone == deal


def test_deals_are_equal_by_rules_deck_first_seat_and_history() -> None:
    deal, other = _played(8, 30), _played(8, 30)
    assert deal == other and deal != _played(8, 29) and deal != Deal.shuffled(8)
    assert deal != Deal(deal.deck, (deal.first + 1) % 3)
    assert Deal.shuffled(8) != Deal.shuffled(8, Rules(no_progress_turns=9))
    assert "Rules()" in repr(deal) and f"first={deal.first}" in repr(deal)
    assert f"history={len(deal.history)}" in repr(deal)
    with pytest.raises(TypeError):
        hash(deal)


# -- the README's loop ----------------------------------------------------------------------------


def _readme_loop() -> str:
    """The README's loop over a deal (its doctest lines), as code."""
    text = README.read_text()
    start = text.index(">>> while not deal.is_over:")
    lines = []
    for line in text[start:].splitlines():
        if not line.startswith((">>> ", "... ")):
            break
        lines.append(line[4:])
    return "\n".join(lines)


def test_the_loop_the_readme_teaches_lets_seats_declare_and_win() -> None:
    """Picking the acting seat with deal.turn never let a seat declare (40 of 40 deals drawn);
    the README's loop (deal.actor) lets them: most deals of three hard players end in a win."""
    from kowah.players import make_player

    loop = _readme_loop()
    assert "deal.actor" in loop and "deal.turn" not in loop
    results = []
    for seed in range(40):
        players = [make_player("hard", random.Random(seed * 3 + seat)) for seat in range(3)]
        namespace = {"deal": Deal.shuffled(seed), "players": players}
        exec(compile(loop, str(README), "exec"), namespace)
        deal = namespace["deal"]
        assert isinstance(deal, Deal) and deal.outcome is not None
        results.append(deal.outcome.result)
    assert results.count(kowah.Result.WIN) >= 30, results


def test_every_example_asks_deal_actor_who_acts() -> None:
    """One documented way to ask who acts: no example picks the acting seat by deal.turn or
    deal.to_move()[0] (the docstrings' examples, the README, the tutorial and docs' pages)."""
    root = README.parent
    picking = re.compile(r"deal\.to_move\(\)\[0\]|seat = deal\.turn\b|\(deal\.turn\)")
    found = []
    for path in [README, *sorted((root / "docs").glob("*.rst")), *sorted((root / "docs").rglob("*.py")),
                 *sorted((root / "kowah").rglob("*.py"))]:
        if "_build" in path.parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            example = line.lstrip().startswith((">>> ", "... ")) or "docs" in path.parts
            if example and picking.search(line):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert found == []


def test_a_negative_seed_is_refused_not_folded() -> None:
    """random.Random(-5) is random.Random(5): a negative seed would repeat another's deck."""
    with pytest.raises(KowahError, match=re.escape("a seed must be 0 or more, not -5")):
        Deal.shuffled(-5)
    assert Deal.shuffled(0).deck == Deal.shuffled(0).deck


class Faulty:
    """A player that always draws, even where it may not (for the test below)."""

    name = "faulty"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: kowah.Observation, legal_actions: tuple[Action, ...]) -> Action:
        return Action.draw(observation.seat)


def test_a_faulty_player_in_a_worker_raises_the_librarys_error() -> None:
    """The error crosses the process boundary (it pickles): no BrokenProcessPool."""
    from kowah.simulation import simulate

    with pytest.raises(IllegalActionError) as caught:
        simulate(4, [Faulty, "random", "random"], seed=1, jobs=2)
    assert caught.value.reason is kowah.Reason.MUST_DISCARD and caught.value.seat == 0
