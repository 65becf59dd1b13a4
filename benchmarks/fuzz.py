"""Fuzz the public API: random operations with good and bad input, checked after every step.

    .venv/bin/python benchmarks/fuzz.py [--seed S] [--operations N | --seconds T] [--json]

One operation makes one to a few dozen public calls, chosen at random (seeded): the hand
functions and :func:`~kowah.cards.parse_cards` with good and bad input (wrong types, bools,
plain ints, unknown codes, other packs); :class:`~kowah.actions.Action` built, parsed, read from
dicts and replaced with bad fields; :class:`~kowah.deal.Deal` built from good and mangled decks
and seeds; deals played with legal and illegal actions, undone, copied; observations rebuilt,
replaced with bad fields and read back from their JSON; records written, read, mangled and
replayed; :class:`~kowah.engine.Rules` variants. Every library error is rendered by the
translator of a random language.

It counts:

- **bad exceptions**: any exception that is not a :class:`~kowah.errors.KowahError` (the
  library's errors for bad input), and any error from a call that must succeed;
- **impossible states**, checked after every change to a deal: the cards (every card of the
  pack in exactly one hand, discard pile or the stock), the hand sizes, the legal actions
  (the actor has some; a seat that may not act has none; each is legal, its seat's, and
  agrees with ``why_illegal``), each seat's observation (its own checks, its counts, the
  cards known in other hands really there) and its JSON round trip;
- **undo mismatches**: an action applied then undone that does not give back the same deal,
  events and observations, or an illegal action that changed the deal;
- **replay mismatches**: a record (or a pickled, copied deal) that does not replay to the
  same deal, outcome and observations.

Exit status 0 when all four are zero, 1 otherwise (the first few failures are printed with
their seed and step, so each can be reproduced).
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs

from kowah.actions import Action, ActionKind
from kowah.cards import KOWAH_DECK, MONEY_PACK, Card, Pack, format_cards, parse_cards
from kowah.deal import Deal, Observation
from kowah.engine import KOWAH_RULES, MONEY_RULES, Rules
from kowah.errors import IllegalActionError, KowahError
from kowah.hands import discard_options, distance, improvements, is_ready, splits, waits
from kowah.i18n import LANGUAGES, Translator, translator
from kowah.record import Record

__all__ = ["Fuzzer", "Report", "main", "run"]

_PACKS: tuple[Pack, ...] = (KOWAH_DECK, MONEY_PACK)
_RULES: tuple[Rules, ...] = (KOWAH_RULES, MONEY_RULES, Rules(no_progress_turns=3),
                             Rules(pack=MONEY_PACK, no_progress_turns=7))
_JUNK: tuple[object, ...] = (None, True, False, 0, 1, 3, -1, 2**70, 1.5, float("nan"), "", "zz", "5c", b"5c",
                             "discard", [], (), {}, {"seat": 0}, object(), Card.C5, Card.MK, ActionKind.DRAW,
                             "\u202e5c", "x" * 500)

#: Junk as JSON data holds it.
_JSON_JUNK: tuple[object, ...] = (None, True, 0, -1, 2**70, 1.5, "", "zz", "5c", [], {}, ["zz"], [[1]],
                                  [["5c"]],
                                  {"seat": 0}, [None, None, None], [8, 8, 8], "x" * 500)

#: Values a mangled record may hold.
_RECORD_JUNK: tuple[object, ...] = (None, True, 0, 2, -1, 1.5, "", "zz", "5c", [], {}, ["5c"],
                                    "kowah-record/2", "money", {"no_progress_turns": 0}, {"unknown": 1})


@attrs.define
class Report:
    """What a run found: counts, and the first few failures in full."""

    seed: int
    operations: int = 0
    calls: int = 0
    deal_steps: int = 0
    undos: int = 0
    replays: int = 0
    bad_exceptions: int = 0
    impossible_states: int = 0
    undo_mismatches: int = 0
    replay_mismatches: int = 0
    errors: Counter[str] = attrs.field(factory=Counter)
    failures: list[str] = attrs.field(factory=list)
    seconds: float = 0.0

    @property
    def clean(self) -> bool:
        """Whether nothing went wrong."""
        return not (self.bad_exceptions or self.impossible_states or self.undo_mismatches
                    or self.replay_mismatches)

    def as_dict(self) -> dict[str, object]:
        """The figures as JSON-ready data."""
        return {"seed": self.seed, "operations": self.operations, "calls": self.calls,
                "deal_steps": self.deal_steps, "undos": self.undos, "replays": self.replays,
                "bad_exceptions": self.bad_exceptions, "impossible_states": self.impossible_states,
                "undo_mismatches": self.undo_mismatches, "replay_mismatches": self.replay_mismatches,
                "library_errors": dict(self.errors.most_common()), "seconds": round(self.seconds, 2),
                "failures": self.failures}


class _Expected(Exception):
    """A call that had to succeed failed, or a call that had to fail succeeded."""


def _snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything a deal shows, to compare before and after."""
    return (deal.history, deal.events, deal.turn, deal.phase, deal.stock, deal.latest_discard, deal.outcome,
            tuple(deal.hand(seat) for seat in range(3)), tuple(deal.discards(seat) for seat in range(3)),
            tuple(deal.declared_wait(seat) for seat in range(3)), deal.public_draws, deal.to_move(),
            tuple(deal.observation(seat) for seat in range(3)),
            tuple(deal.legal_actions(seat) for seat in range(3)))


class Fuzzer:
    """Random operations on the public API from one seed; see the module's docstring."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.report = Report(seed)
        self.translators: dict[str, Translator] = {}
        self.deal = Deal.shuffled(self.rng.randrange(2**32), self.rng.choice(_RULES))
        self.step = 0
        self.operations: list[Callable[[], None]] = [
            *[self.play] * 10, *[self.hand_function] * 3, *[self.actions] * 2, self.make_deal,
            self.undo, self.observation, self.observation, self.record, self.rules, self.copies,
        ]

    # -- the loop ---------------------------------------------------------------------------

    def run(self, operations: int | None, seconds: float | None) -> Report:
        """Run until *operations* are done or *seconds* have passed."""
        start = time.process_time()
        while (operations is None or self.report.operations < operations) and (
                seconds is None or time.process_time() - start < seconds):
            self.step += 1
            operation = self.rng.choice(self.operations)
            try:
                operation()
            except KowahError as error:  # a library error that escaped where it had to succeed
                self._fail("bad_exceptions", operation.__name__, error)
            except _Expected as error:
                self._fail("bad_exceptions", operation.__name__, error)
            except Exception as error:
                self._fail("bad_exceptions", operation.__name__, error)
            self.report.operations += 1
        self.report.seconds = time.process_time() - start
        return self.report

    def _fail(self, counter: str, where: str, error: BaseException | str) -> None:
        setattr(self.report, counter, getattr(self.report, counter) + 1)
        if len(self.report.failures) < 20:
            detail = (error if isinstance(error, str) else
                      "".join(traceback.format_exception(error)[-6:]))
            self.report.failures.append(f"{counter} at step {self.step} ({where}), seed "
                                        f"{self.report.seed}: {detail}")

    def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[bool, Any]:
        """Call *function*: (True, its result), or (False, the library error it raised).
        Any other exception propagates (a bad one); every library error is also rendered in a
        random language, which must not fail."""
        self.report.calls += 1
        try:
            return True, function(*args, **kwargs)
        except KowahError as error:
            self.report.errors[type(error).__name__] += 1
            language = self.rng.choice(LANGUAGES)
            if language not in self.translators:
                self.translators[language] = translator(language)
            message = self.translators[language].error(error)
            if not isinstance(message, str) or not message:
                raise _Expected(f"{type(error).__name__} rendered as {message!r} in {language}") from error
            return False, error

    def must(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Call *function*, which must succeed."""
        self.report.calls += 1
        return function(*args, **kwargs)

    # -- random input -----------------------------------------------------------------------

    def cards_input(self, pack: Pack) -> object:
        """Cards as a caller might give them: good hands, codes, wrong lengths, junk."""
        rng = self.rng
        kind = rng.randrange(8)
        size = rng.choice((8, 8, 8, 9, 7, 0, 1, 12))
        if kind == 0:
            return rng.sample(pack.cards, min(size, len(pack.cards)))
        if kind == 1:
            hand = rng.sample(pack.cards, 8)
            codes = [card.code for card in hand]
            return codes if rng.random() < 0.5 else " ".join(codes)
        if kind == 2:
            return [rng.choice(list(Card)) for _ in range(size)]  # maybe outside the pack
        if kind == 3:
            return [rng.randrange(-2, 40) for _ in range(size)]  # plain ints: refused
        if kind == 4:
            return [rng.choice(_JUNK) for _ in range(size)]
        if kind == 5:
            return rng.choice(_JUNK)
        if kind == 6:  # a ready hand, of copies that are there, shuffled
            triples = rng.sample([card for card in pack.kinds if pack.copies(card) >= 3], 2)
            pair = rng.choice([card for card in pack.kinds if pack.copies(card) >= 2 and card not in triples])
            hand = [*triples[0:1] * 3, *triples[1:2] * 3, pair, pair]
            rng.shuffle(hand)
            return hand
        return [True] * 8

    def seat_input(self) -> object:
        return self.rng.choice((0, 1, 2, 0, 1, 2, *_JUNK))

    # -- operations -------------------------------------------------------------------------

    def hand_function(self) -> None:
        """A hand function with good or bad cards and pack; answers that must agree do."""
        rng = self.rng
        pack: object = rng.choice((*_PACKS, *_PACKS, *_PACKS, rng.choice(_JUNK)))
        real = pack if isinstance(pack, Pack) else KOWAH_DECK
        cards = self.cards_input(real)
        name = rng.choice(("is_ready", "waits", "splits", "distance", "improvements", "discard_options",
                           "parse_cards", "format_cards", "Card.parse", "rules"))
        if name == "parse_cards":
            self.call(parse_cards, cards, pack)
            return
        if name == "format_cards":
            self.call(format_cards, cards)
            return
        if name == "Card.parse":
            self.call(Card.parse, rng.choice((*_JUNK, *(card.code.upper() for card in real.kinds))))
            return
        if name == "rules":
            rules = rng.choice(_RULES)
            done, answer = self.call(rules.waits, cards)
            if done:
                again = self.must(waits, cards, rules.pack)
                if again != answer or self.must(rules.is_ready, cards) != bool(answer):
                    raise _Expected(f"Rules.waits and waits disagree on {cards!r}")
            return
        functions: dict[str, Callable[..., Any]] = {
            "is_ready": is_ready, "waits": waits, "splits": splits, "distance": distance,
            "improvements": improvements, "discard_options": discard_options}
        done, answer = self.call(functions[name], cards, pack)
        if done and name in {"is_ready", "waits", "splits"}:  # then the eight cards are a hand
            ready = self.must(is_ready, cards, pack)
            found = self.must(waits, cards, pack)
            away = self.must(distance, cards, pack)
            shapes = self.must(splits, cards, pack)
            if ready != bool(found) or (away == 0) != ready or {split.wait for split in shapes} != set(found):
                self._fail("impossible_states", "hand_function",
                           f"is_ready {ready}, waits {found}, distance {away}, splits {shapes} for {cards!r}")

    def actions(self) -> None:
        """Actions built, parsed, read from dicts and replaced, good and bad; round trips."""
        rng = self.rng
        seat, card = self.seat_input(), rng.choice((*list(Card), *_JUNK))
        kind = rng.choice((*ActionKind, *_JUNK))
        attempts: list[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = [
            (Action, (seat, kind, card), {}), (Action.draw, (seat,), {}), (Action.take, (seat,), {}),
            (Action.discard, (seat, card), {}), (Action.declare, (seat, card), {}),
            (Action.pass_, (seat,), {}),
            (Action.parse, (rng.choice(("draw", "take", "pass", "declare", f"discard {card}",
                                        f"declare {card}", f"DISCARD {card}", "discard", "fly", "",
                                        "discard 5c 5c")),),
             {"seat": seat}),
            (Action.from_dict, ({"seat": seat, "do": rng.choice(("draw", "discard", "declare", "x", 3)),
                                 "card": rng.choice(("5c", "mk", "zz", 5, None, card))},), {}),
        ]
        function, args, kwargs = rng.choice(attempts)
        done, action = self.call(function, *args, **kwargs)
        if not done:
            return
        if not isinstance(action, Action):
            raise _Expected(f"{function.__qualname__} gave {action!r}")
        if self.must(Action.parse, str(action), seat=action.seat) != action and not (
                action.kind is ActionKind.DECLARE and action.card is None):
            raise _Expected(f"Action.parse(str({action!r})) differs")
        if self.must(Action.from_dict, json.loads(json.dumps(action.to_dict()))) != action:
            raise _Expected(f"Action.from_dict(to_dict({action!r})) differs")
        field = rng.choice(("seat", "kind", "card"))
        self.call(action.replace, **{field: rng.choice((*_JUNK, *ActionKind, *list(Card)[:3]))})
        sorted([action, Action.draw(0), Action.discard(2, Card.C1)])

    def make_deal(self) -> None:
        """A deal from a good or mangled deck, first seat, seed and rules; a good one is played."""
        rng = self.rng
        rules: object = rng.choice((*_RULES, *_RULES, rng.choice(_JUNK)))
        if rng.random() < 0.5:
            seed: object = rng.choice((rng.randrange(2**40), rng.randrange(2**40),
                                       random.Random(rng.random()), None, *_JUNK))
            first: object = rng.choice((None, None, 0, 1, 2, *_JUNK))
            done, deal = self.call(Deal.shuffled, seed, rules, first=first)
        else:
            pack = rules.pack if isinstance(rules, Rules) else KOWAH_DECK
            deck: list[object] = list(pack.cards)
            rng.shuffle(deck)
            for _ in range(rng.choice((0, 0, 0, 1, 2))):
                how, where = rng.randrange(5), rng.randrange(len(deck))
                if how == 0:
                    del deck[where]
                elif how == 1:
                    deck[where] = rng.choice(list(Card))
                elif how == 2:
                    deck[where] = rng.choice(_JUNK)
                elif how == 3:
                    deck.append(rng.choice(list(Card)))
                else:
                    deck[where] = int(deck[where])  # type: ignore[call-overload]
            done, deal = self.call(Deal, rng.choice((deck, tuple(deck), deck, rng.choice(_JUNK))),
                                   rng.choice((0, 1, 2, 0, 1, 2, *_JUNK)), rules)
        if done:
            self.deal = deal
            self.check(deal)

    def play(self) -> None:
        """One step of the current deal: mostly a legal action, sometimes any action (refused,
        with the deal unchanged, when illegal); a finished deal starts a new one."""
        deal, rng = self.deal, self.rng
        if deal.is_over:
            self.check_replay(deal)
            self.deal = Deal.shuffled(rng.randrange(2**32), rng.choice(_RULES))
            return
        if rng.random() < 0.8:
            seat = deal.actor
            action = rng.choice(self.must(deal.legal_actions, seat))
        else:
            seat = rng.randrange(3)
            kind = rng.choice(list(ActionKind))
            card = rng.choice(list(Card)) if kind in {ActionKind.DISCARD, ActionKind.DECLARE} else None
            action = Action(seat, kind, card if kind is ActionKind.DISCARD or rng.random() < 0.8 else None)
        legal = action in deal.legal_actions(action.seat)
        refusal = self.must(deal.why_illegal, action)
        if self.must(deal.is_legal, action) != (refusal is None):
            self._fail("impossible_states", "play", f"is_legal and why_illegal disagree on {action!r}")
        if legal and refusal is not None:
            self._fail("impossible_states", "play", f"{action!r} is listed as legal but refused: {refusal}")
        before = _snapshot(deal)
        done, events = self.call(deal.apply, action)
        self.report.deal_steps += 1
        if not done:
            if not isinstance(events, IllegalActionError) or refusal is None:
                self._fail("impossible_states", "play",
                           f"{action!r} refused with {events!r}, refusal {refusal}")
            if _snapshot(deal) != before:
                self._fail("undo_mismatches", "play", f"the refused {action!r} changed the deal")
            return
        if refusal is not None and not (action.kind is ActionKind.DECLARE and action.card is None):
            self._fail("impossible_states", "play", f"{action!r} applied though refused: {refusal}")
        if (not events) != (action.kind is ActionKind.PASS) or any(
                event not in deal.events for event in events):
            self._fail("impossible_states", "play", f"{action!r} gave events {events!r}")
        self.check(deal)
        if rng.random() < 0.15:  # take it back and check that nothing is left of it
            self.report.undos += 1
            undone = self.must(deal.undo)
            if _snapshot(deal) != before or undone.seat != action.seat or undone.kind is not action.kind:
                self._fail("undo_mismatches", "play", f"undoing {action!r} did not restore the deal")
            self.must(deal.apply, undone)

    def undo(self) -> None:
        """Undo several actions at once and replay them: the same deal; undo with nothing to
        undo is a library error."""
        deal = self.deal
        count = self.rng.randrange(1, 6)
        before, applied = _snapshot(deal), []
        for _ in range(count):
            done, action = self.call(deal.undo)
            if not done:
                break
            applied.append(action)
        self.report.undos += len(applied)
        self.check(deal)
        for action in reversed(applied):
            self.must(deal.apply, action)
        if _snapshot(deal) != before:
            self._fail("undo_mismatches", "undo", f"undoing and redoing {applied!r} changed the deal")

    def observation(self) -> None:
        """A seat's observation: its JSON round trip, and replaced or rebuilt with bad fields."""
        rng, deal = self.rng, self.deal
        done, view = self.call(deal.observation, self.seat_input())
        if not done:
            return
        if Observation.from_dict(json.loads(json.dumps(view.to_dict()))) != view:
            raise _Expected(f"Observation.from_dict(to_dict()) differs at {deal!r}")
        fields = attrs.fields_dict(Observation)
        name = rng.choice(list(fields))
        value = getattr(view, name)
        bad: object
        choice = rng.randrange(4)
        if choice == 0:
            bad = rng.choice(_JUNK)
        elif choice == 1 and isinstance(value, tuple) and value:
            bad = value[:-1] if rng.random() < 0.5 else (*value, value[0])
        elif choice == 2 and isinstance(value, int) and not isinstance(value, bool):
            bad = value + rng.choice((-200, -1, 1, 200))
        else:
            bad = rng.choice((Card.MK, Card.WS, 1, (Card.C1,) * 9, (8, 8, 8), ((), (), ()), ((0, Card.C1),),
                              (Action.draw(0), Action.draw(1)), [Action.draw(view.seat)], MONEY_RULES))
        done, changed = self.call(view.replace, **{name: bad})
        if done:  # a valid observation, though not this deal's: it must be one a deal could give
            self.check_observation_alone(changed)
        data: dict[str, Any] = dict(json.loads(json.dumps(view.to_dict())))
        key = rng.choice(list(data))
        if rng.random() < 0.3:
            del data[key]
        else:
            data[key] = rng.choice(_JSON_JUNK)
        self.call(Observation.from_dict, data)

    def record(self) -> None:
        """The current deal's record: written and read back (dict and JSON), replayed to the same
        deal; then a mangled copy is read, which either replays or is a library error."""
        rng, deal = self.rng, self.deal
        record = self.must(Record.from_deal, deal, tags={"seat0": rng.choice(("Ana", "Jiří", "Ayu"))})
        text = self.must(record.dumps, rng.choice((None, 2)))
        if self.must(Record.loads, text) != record or self.must(Record.from_dict, record.to_dict()) != record:
            self._fail("replay_mismatches", "record", f"the record of {deal!r} does not read back as itself")
        self.check_replay(deal)
        data: Any = json.loads(text)
        for _ in range(rng.randrange(1, 4)):
            target = data
            if isinstance(data.get("actions"), list) and data["actions"] and rng.random() < 0.4:
                target = rng.choice(data["actions"])
            if not isinstance(target, dict) or not target:
                continue
            key = rng.choice(list(target))
            if rng.random() < 0.3:
                del target[key]
            else:
                target[key] = rng.choice(_RECORD_JUNK)
        mangled = json.dumps(data)
        if rng.random() < 0.2:
            mangled = mangled[: rng.randrange(len(mangled))]
        done, read = self.call(Record.loads, mangled.encode() if rng.random() < 0.3 else mangled)
        if done:
            done, replayed = self.call(read.replay)
            if done:
                self.check(replayed)

    def rules(self) -> None:
        """Rules variants, good and bad, and the pack names."""
        rng = self.rng
        choice = rng.randrange(4)
        if choice == 0:
            done, rules = self.call(Rules, rng.choice((*_PACKS, *_JUNK)),
                                    rng.choice((1, 5, 30, 0, -3, *_JUNK)))
        elif choice == 1:
            done, rules = self.call(KOWAH_RULES.replace, **{rng.choice(("pack", "no_progress_turns", "x")):
                                                            rng.choice((MONEY_PACK, 4, *_JUNK))})
        elif choice == 2:
            done, rules = self.call(Rules.from_pack_name, rng.choice(("kowah", "money", "Money", "", *_JUNK)))
        else:
            counts = [rng.choice((0, 1, 2, 3, 4)) for _ in range(33)]
            done, pack = self.call(Pack, rng.choice(("mine", 3)), counts)
            done, rules = self.call(Rules, pack) if done else (False, None)
        if done:
            if self.must(pickle.loads, pickle.dumps(rules)) != rules or rules.max_actions < 1:
                raise _Expected(f"{rules!r} does not survive pickling")
            deal = self.must(Deal.shuffled, rng.randrange(2**32), rules)
            self.check(deal)
            if rng.random() < 0.2:
                self.deal = deal

    def copies(self) -> None:
        """Copies and pickles of the current deal are equal and independent."""
        deal = self.deal
        before = _snapshot(deal)
        if self.rng.random() < 0.5:
            clone = self.must(pickle.loads, pickle.dumps(deal))
        else:
            clone = self.must(deal.copy)
        if clone != deal or _snapshot(clone) != before:
            self._fail("replay_mismatches", "copies", f"a copy of {deal!r} differs")
            return
        if not clone.is_over:
            clone.apply(self.rng.choice(clone.legal_actions(clone.actor)))
            if _snapshot(deal) != before:
                self._fail("impossible_states", "copies", f"playing a copy changed {deal!r}")

    # -- the checks -------------------------------------------------------------------------

    def check_replay(self, deal: Deal) -> None:
        """The deal's record replays to the same deal, outcome and observations."""
        self.report.replays += 1
        replayed = self.must(Record.loads, self.must(Record.from_deal, deal).dumps()).replay()
        if replayed != deal or replayed.outcome != deal.outcome or any(
                replayed.observation(seat) != deal.observation(seat) for seat in range(3)):
            self._fail("replay_mismatches", "replay", f"{deal!r} replays as {replayed!r}")

    def check(self, deal: Deal) -> None:
        """The invariants of a deal (see the module's docstring); a broken one is counted."""
        problems: list[str] = []
        pack = deal.rules.pack
        placed = [card for seat in range(3) for card in (*deal.hand(seat), *deal.discards(seat))]
        placed += deal.stock
        if sorted(placed) != list(pack.cards):
            problems.append("the cards in play are not the pack")
        sizes = [len(deal.hand(seat)) for seat in range(3)]
        nine = [seat for seat in range(3) if sizes[seat] == 9]
        if any(size not in (8, 9) for size in sizes) or len(nine) > 1:
            problems.append(f"hand sizes {sizes}")
        elif nine and not deal.is_over and (deal.phase.value != "discard" or nine[0] != deal.turn):
            problems.append(f"hand sizes {sizes} with seat {deal.turn} in phase {deal.phase}")
        if deal.stock_count != len(deal.stock):
            problems.append("the stock count is not the stock")
        movers = deal.to_move()
        if deal.is_over:
            if deal.outcome is None or movers or any(deal.legal_actions(seat) for seat in range(3)):
                problems.append("a finished deal with an actor or no outcome")
        elif deal.actor not in movers or not deal.legal_actions(deal.actor) or deal.outcome is not None:
            problems.append(f"actor {deal.actor} not among {movers} or without a legal action")
        for seat in range(3):
            legal = deal.legal_actions(seat)
            if (seat in movers) != bool(legal):
                problems.append(f"seat {seat}'s legal actions {legal} but to move {movers}")
            if any(action.seat != seat or deal.why_illegal(action) is not None for action in legal):
                problems.append(f"seat {seat}'s legal actions {legal} are not all its own and legal")
            view = deal.observation(seat)
            if (view.hand != tuple(sorted(deal.hand(seat))) or view.hand_sizes != tuple(sizes)
                    or view.stock_count != deal.stock_count or view.legal_actions != legal
                    or view.outcome != deal.outcome or view.rules != deal.rules):
                problems.append(f"seat {seat}'s observation does not match the deal")
            for other in range(3):
                if other != seat and Counter(view.known[other]) - Counter(deal.hand(other)):
                    problems.append(f"seat {seat} knows cards of seat {other} that are not there")
            try:
                view.replace()  # the checks of a new observation, on one the deal made
            except KowahError as error:
                problems.append(f"seat {seat}'s observation fails its own checks: {error}")
        for problem in problems:
            self._fail("impossible_states", "check", f"{problem} in {deal!r}")

    def check_observation_alone(self, view: Observation) -> None:
        """An observation that passed its checks holds together (its JSON reads back as it)."""
        if Observation.from_dict(json.loads(json.dumps(view.to_dict()))) != view:
            self._fail("impossible_states", "observation", f"{view!r} does not read back from its JSON")


def run(seed: int = 0, operations: int | None = None, seconds: float | None = None) -> Report:
    """Fuzz from *seed* for *operations* or *seconds* (of CPU time); the report."""
    return Fuzzer(seed).run(operations, seconds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="the seed (default: 0)")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--operations", type=int, help="how many operations (default: 10,000)")
    budget.add_argument("--seconds", type=float, help="or how many CPU seconds")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    operations = 10_000 if args.operations is None and args.seconds is None else args.operations
    report = run(args.seed, operations, args.seconds)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print(f"fuzz, seed {report.seed}: {report.operations:,} operations ({report.calls:,} calls, "
              f"{report.deal_steps:,} deal steps, {report.undos:,} undos, {report.replays:,} replays) "
              f"in {report.seconds:.1f} s of CPU")
        print(f"  bad exceptions {report.bad_exceptions}, impossible states {report.impossible_states}, "
              f"undo mismatches {report.undo_mismatches}, replay mismatches {report.replay_mismatches}")
        errors = report.errors.most_common()
        print("  library errors: " + ", ".join(f"{name} {count:,}" for name, count in errors))
        for failure in report.failures:
            print(failure)
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
