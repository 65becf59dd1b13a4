"""One table of the browser table: the deal, its seats (people or AIs), their keys, the log.

A :class:`Game` holds a deal and three :class:`~kowah.web.seats.Seat` values. Seat 0 is the creator's; seats
``1 … humans - 1`` are friends' (invited by their keys); the others are AIs of the game's
strength (``opponents``). After each person's action it lets the AIs play until a person must
choose again, playing a person's turns too once their hand is locked (R12). The AIs'
randomness comes from the game's seed and the move number, never from a process-wide stream,
so a game restored from its saved form plays on exactly as it would have.

The table's own happenings (a person joins or leaves, the deal starts, a turn clock runs out,
the game is closed) are :class:`~kowah.web.seats.TableEvent` values, logged between the deal's events; the
state's ``version`` counts both.

:meth:`Game.state` is one seat's observation (or a spectator's) and nothing more: the other
hands and the stock order appear only in the record, which is given out once the deal is over.
:mod:`kowah.web.saved` holds its saved form: :func:`~kowah.web.saved.saved_text` writes it,
:func:`~kowah.web.saved.restore` reads it back.

>>> game = Game.new(seed=7, opponents="random", lang="en")
>>> state = game.state(seat=0)
>>> state["version"] == len(state["events"]), state["outcome"] is None, state["status"]
(True, True, 'playing')
>>> all(action["seat"] == 0 for action in state["legal"])
True
>>> game.seat_of(game.seats[0].token), game.seat_of("not a key")
(0, None)
"""

from __future__ import annotations

import enum
import hmac
import random
import re
import secrets
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kowah.actions import SEATS, Action, ActionKind
from kowah.cards import Card
from kowah.deal import Deal
from kowah.errors import KowahError
from kowah.events import Event, Outcome
from kowah.i18n import Translator, translator
from kowah.record import Record
from kowah.web.ai_players import make as make_player  # a level, or a player of one's own
from kowah.web.phrases import phrase_text
from kowah.web.said import state_sentences
from kowah.web.seats import TABLE_TEXT, Seat, TableEvent, TableEventKind, new_key
from kowah.web.text import ai_seat, words

if TYPE_CHECKING:  # the saved format's module reads games: only its cache's type here
    from kowah.web.saved import Written

__all__ = ["ABSENT_SECONDS", "CLOCK", "ID_PATTERN", "MAX_PAST", "PHRASES_PER_MINUTE", "STATE_FORMAT",
           "TURN_SECONDS", "Game", "Status", "game_result"]

#: The state's format, for other front ends.
STATE_FORMAT = "kowah-web-state/2"
#: The AI that plays a person's turn when their clock runs out.
CLOCK = "hard"
#: The turn clock's bounds, in seconds.
TURN_SECONDS = (5, 3600)
#: With no turn clock, a friends' table hands the seat of the person to move to the AI once they
#: have been away this long (seconds: no open socket, no change of theirs): it never waits
#: forever on someone who is gone.
ABSENT_SECONDS = 120.0
#: The earlier deals a table keeps (their results and records).
MAX_PAST = 50
#: The quick phrases a seat may say in a minute (then 429).
PHRASES_PER_MINUTE = 6
#: What a game id looks like (``secrets.token_urlsafe(16)``); anything else is unknown.
ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class Status(enum.StrEnum):
    """Where a game stands."""

    WAITING = "waiting"  #: for people to take their seats
    PLAYING = "playing"
    OVER = "over"
    CLOSED = "closed"


def _words(lang: str, codes: bool) -> Translator:
    return translator(lang, codes=True) if codes else words(lang)


#: Each card's code, by the card's number (``str(card)`` without a call per card).
_CODE: tuple[str, ...] = tuple(str(card) for card in Card)
#: A public draw as the state writes it, ``[seat, code]``, by seat and card (made once).
_DRAWN: tuple[tuple[tuple[int, str], ...], ...] = tuple(
    tuple((seat, code) for code in _CODE) for seat in range(SEATS))


def game_result(outcome: Outcome) -> dict[str, Any]:
    """A deal's result as a table keeps it: ``winner``, ``kind`` (how it ended),
    ``multiplier`` and the winning ``card`` (``None`` where there is none)."""
    return {"winner": outcome.winner, "kind": None if outcome.by is None else str(outcome.by),
            "multiplier": outcome.multiplier,
            "card": None if outcome.card is None else _CODE[outcome.card]}


def _codes(cards: Sequence[Card]) -> list[str]:
    code = _CODE
    return [code[card] for card in cards]


class Game:
    """A table of the browser table (see the module's description).

    Not thread-safe: callers hold :attr:`lock` while they read or change a game.
    """

    def __init__(self, game_id: str, deal: Deal, *, seed: int, opponents: str, lang: str,
                 seats: Sequence[Seat], turn_seconds: int | None = None, started: bool = True,
                 closed: bool = False, log: Sequence[TableEvent] = (), created: float | None = None,
                 owner: str = "") -> None:
        self.id = game_id
        self.deal = deal
        self.seed = seed
        self.opponents = opponents
        self.lang = lang
        self.seats = list(seats)
        self.turn_seconds = turn_seconds
        self.started = started
        self.closed = closed
        self.log = list(log)
        self.created = time.time() if created is None else created
        self.updated = self.created
        #: When the person to move runs out of time (seconds since 1970), or ``None``.
        self.deadline: float | None = None
        #: Action requests received from each seat's key, refused ones included (each seat's
        #: bounded by the app: one seat cannot spend another's).
        self.requests = [0] * SEATS
        #: The client address that made the game (to share the places fairly).
        self.owner = owner
        #: Held while the game is read or changed, so two requests never interleave.
        self.lock = threading.Lock()
        #: Set, under :attr:`lock`, by a store that dropped this copy half changed (its change
        #: was not saved): whoever waited for the lock reads the game again
        #: (:meth:`Store.read <kowah.web.store.Store.read>`).
        self.discarded = False
        self._texts: dict[tuple[str, bool, int | None], list[dict[str, Any]]] = {}
        # The views of one seat after each step of its latest action (see views_since).
        self._captured: tuple[int, int, dict[int, dict[str, Any]]] | None = None
        # The log's order (see _order), built as the log grows: the entries, and how many of
        # the deal's events and of the table's it holds.
        self._order_cache: list[int | TableEvent] = []
        self._ordered = (0, 0)
        #: The saved form's parts, kept by :func:`kowah.web.saved.saved_text` (made whole
        #: once, then only what is new).
        self.written: Written | None = None
        # The winner's split (see _winning_hand), worked out once a deal has ended.
        self._split: tuple[tuple[Card, ...], ...] | None = None
        #: Whether the last action was a pass (the record's ``passed``, R11).
        self.passed = False
        #: The deal's number at this table (1 for the first; see :meth:`next_deal`).
        self.deal_number = 1
        #: The log entries of the earlier deals: the version at which this deal's log begins.
        self.offset = 0
        #: The earlier deals' results (``winner``, ``kind``, ``multiplier``) and records.
        self.past: list[dict[str, Any]] = []
        #: The people who asked for the next deal (once this one has ended).
        self.ready: set[int] = set()
        #: The people's seats that an AI plays until they come back (:meth:`hand_over`).
        self.handed: set[int] = set()
        #: Each seat's turn clocks run out in a row (two hand the seat to the AI).
        self.timeouts = [0] * SEATS
        #: When each seat's person last changed the game (seconds since 1970; 0: never).
        self.seen = [0.0] * SEATS
        #: When each seat last said a phrase (this process only: the rate limit).
        self.said: dict[int, list[float]] = {}

    @classmethod
    def new(cls, *, seed: int | None = None, opponents: str = "normal", lang: str = "en",
            deck: Sequence[Card] | None = None, first: int | None = None, humans: int = 1,
            names: Sequence[str | None] = (), start_now: bool = False,
            turn_seconds: int | None = None, game_id: str | None = None, owner: str = "",
            now: float | None = None) -> Game:
        """A new game; *seed* fixes the shuffle (unless *deck* is given) and the AIs' choices.

        Seats ``0 … humans - 1`` are people's (seat 0, the creator's, already taken); the deal
        starts at once for one person or with *start_now*, else when every person has joined.
        """
        if seed is None:
            seed = secrets.randbits(63)
        if deck is not None:
            deal = Deal(deck, Deal.shuffled(seed).first if first is None else first)
        else:
            deal = Deal.shuffled(seed, first=first)
        seats = [Seat(person=seat < humans, token=new_key() if seat < humans else None,
                      name=names[seat] if seat < len(names) else None, joined=seat == 0)
                 for seat in range(SEATS)]
        game = cls(game_id or secrets.token_urlsafe(16), deal, seed=seed, opponents=opponents,
                   lang=lang, seats=seats, turn_seconds=turn_seconds, started=False, owner=owner,
                   created=now)
        if humans == 1:
            game.started = True
            game.advance(now)
        elif start_now:
            game.start(now)
        return game

    # -- who is who -----------------------------------------------------------------------------

    @property
    def humans(self) -> int:
        return sum(seat.person for seat in self.seats)

    def seat_of(self, token: str) -> int | None:
        """The seat whose key is *token*, or ``None``; every seat's key is compared in
        constant time, whichever matches."""
        found = None
        given = token.encode("utf-8", "replace")
        for index, seat in enumerate(self.seats):
            key = (seat.token or "").encode()
            if hmac.compare_digest(key, given) and seat.token:
                found = index
        return found

    def plays(self, seat: int) -> bool:
        """Whether a person plays *seat* now (else an AI does)."""
        state = self.seats[seat]
        return state.person and state.joined and not state.left and seat not in self.handed

    def is_person(self, seat: int) -> bool:
        """Whether *seat* is a person's, as the table shows it: a person plays it, or it waits
        for them (an AI plays a seat whose person left, or that the deal started without)."""
        state = self.seats[seat]
        return state.person and not state.left and (state.joined or not self.started)

    @property
    def status(self) -> Status:
        if self.closed:
            return Status.CLOSED
        if not self.started:
            return Status.WAITING
        return Status.OVER if self.deal.is_over else Status.PLAYING

    @property
    def version(self) -> int:
        """The number of log entries: the deal's events and the table's, over every deal at
        this table (it never goes back)."""
        return self.offset + len(self.deal.events) + len(self.log)

    @property
    def entries(self) -> int:
        """The number of this deal's log entries."""
        return len(self.deal.events) + len(self.log)

    @property
    def is_over(self) -> bool:
        return self.deal.is_over

    @property
    def actor(self) -> int | None:
        """The seat to act now (the deal's :attr:`~kowah.deal.Deal.actor`), or ``None``."""
        if not self.started or self.closed or self.deal.is_over:
            return None
        return self.deal.actor

    # -- playing --------------------------------------------------------------------------------

    def rng(self, seat: int) -> random.Random:
        """The randomness of *seat*'s next choice: from the seed, the deal's number and the
        move number only."""
        deal = "" if self.deal_number == 1 else f"{self.deal_number}/"
        return random.Random(f"kowah-web/{self.seed}/{deal}{len(self.deal.history)}/{seat}")

    def _ai(self, seat: int, strength: str) -> None:
        view = self.deal.observation(seat)
        self._apply(make_player(strength, self.rng(seat)).choose(view, view.legal_actions))

    def _apply(self, action: Action) -> None:
        self.deal.apply(action)
        self.passed = action.kind is ActionKind.PASS
        if self._captured is not None:
            viewer, _base, views = self._captured
            views[len(self.deal.events)] = self._table_view(self.deal, viewer)

    def advance(self, now: float | None = None) -> None:
        """Let the AIs play until a person must choose or the deal ends; a locked hand's turns
        (R12) are played for the person. Then set the turn clock."""
        deal = self.deal
        while self.started and not self.closed and not deal.is_over:
            seat = deal.actor
            if self.plays(seat):
                legal = deal.legal_actions(seat)
                if deal.declared_wait(seat) is None or len(legal) != 1:
                    break
                self._apply(legal[0])
                continue
            self._ai(seat, self.opponents)
        self.updated = time.time() if now is None else now
        actor = self.actor
        if self.turn_seconds is not None and actor is not None and self.plays(actor):
            self.deadline = self.updated + self.turn_seconds
        else:
            self.deadline = None

    def legal(self, seat: int | None) -> tuple[Action, ...]:
        """The actions *seat*'s person may take now (none while another seat acts first)."""
        if seat is None or seat != self.actor or not self.plays(seat):
            return ()
        return self.deal.legal_actions(seat)

    def act(self, action: Action, now: float | None = None) -> None:
        """Apply a person's legal *action*, then let the table play on (see :meth:`advance`)."""
        self.timeouts[action.seat] = 0
        self._captured = (action.seat, len(self.deal.events), {})
        try:
            self._apply(action)
            self.advance(now)
        except BaseException:
            self._captured = None
            raise

    def _note(self, kind: TableEventKind, seat: int | None, phrase: str | None = None) -> None:
        self.log.append(TableEvent(kind, seat, len(self.deal.events), phrase))

    def join(self, seat: int, name: str | None = None, now: float | None = None) -> bool:
        """*seat*'s person takes the seat (named *name*); the deal starts once every person has.
        Whether anything changed."""
        current = self.seats[seat]
        changed = False
        if name is not None and name != current.name and not self.is_over:
            current = current.replace(name=name)
            changed = True
        if not current.joined and not current.left:
            current = current.replace(joined=True)
            self.seats[seat] = current
            self._note(TableEventKind.JOIN, seat)
            if not self.started and all(s.joined for s in self.seats if s.person):
                self.start(now)
            else:
                self.advance(now)
            return True
        self.seats[seat] = current
        return changed

    def start(self, now: float | None = None) -> None:
        """Start the deal: AIs play every person's seat not taken yet."""
        self.started = True
        self._note(TableEventKind.START, None)
        self.advance(now)

    def leave(self, seat: int, now: float | None = None) -> None:
        """*seat*'s person leaves; the game's AI plays the seat to the end."""
        self.seats[seat] = self.seats[seat].replace(left=True)
        self._note(TableEventKind.LEAVE, seat)
        if self.started:
            self.advance(now)
        elif all(s.joined or s.left for s in self.seats if s.person):
            self.start(now)

    def close(self, now: float | None = None) -> None:
        """Close the game: nobody acts on it any more."""
        self._note(TableEventKind.CLOSE, None)
        self.closed = True
        self.deadline = None
        self.updated = time.time() if now is None else now

    def expire(self, now: float) -> bool:
        """When the clock of the person to move has run out: the ``hard`` AI takes that one
        action for them (logged as a ``timeout``); the second in a row hands the seat to the AI
        until its person comes back (:meth:`hand_over`). Whether it did."""
        seat = self.actor
        if self.deadline is None or now < self.deadline or seat is None or not self.plays(seat):
            return False
        self._note(TableEventKind.TIMEOUT, seat)
        self.timeouts[seat] += 1
        if self.timeouts[seat] >= 2:
            self.hand_over(seat, now)
            return True
        self._ai(seat, CLOCK)
        self.advance(now)
        return True

    # -- an evening at one table ----------------------------------------------------------------

    @property
    def wake(self) -> float | None:
        """When the housekeeping must look at this game (the store keeps it): the turn clock's
        deadline, or, at a friends' table without a clock, when the person to move will have
        been away :data:`ABSENT_SECONDS`."""
        if self.deadline is not None:
            return self.deadline
        actor = self.actor
        if self.humans > 1 and actor is not None and self.plays(actor):
            return max(self.updated, self.seen[actor]) + ABSENT_SECONDS
        return None

    def check_absent(self, now: float, connected: Sequence[int]) -> bool:
        """At a friends' table without a clock, once :attr:`wake` has come: the AI takes the
        seat of the person to move when they have no open socket (*connected*: sockets per
        seat); else they are still here, and are looked at again later. Whether it changed."""
        seat, wake = self.actor, self.wake
        if self.deadline is not None or wake is None or seat is None or now < wake:
            return False
        if connected[seat]:
            self.seen[seat] = now
        else:
            self.hand_over(seat, now)
        return True

    def hand_over(self, seat: int, now: float | None = None) -> None:
        """The AI plays *seat* (a person's) until its person comes back (:meth:`take_back`)."""
        self.handed.add(seat)
        self.ready.discard(seat)
        self._note(TableEventKind.HAND_OVER, seat)
        self.advance(now)
        self._maybe_next(now)

    def take_back(self, seat: int, now: float | None = None) -> bool:
        """*seat*'s person is back: they play it again from their next turn. Whether it was
        handed over."""
        if seat not in self.handed:
            return False
        self.handed.discard(seat)
        self.timeouts[seat] = 0
        self._note(TableEventKind.TAKE_BACK, seat)
        self.advance(now)
        return True

    def present(self) -> list[int]:
        """The seats whose people play them now (not left, not handed to the AI)."""
        return [seat for seat in range(SEATS) if self.plays(seat)]

    def ask_next(self, seat: int, now: float | None = None, *, at_once: bool = False) -> bool:
        """*seat*'s person asks for the next deal (the deal is over); it starts once every
        person present has, or at once when the creator says so (*at_once*). Whether it
        started."""
        if seat not in self.ready:
            self.ready.add(seat)
            self._note(TableEventKind.READY, seat)
        if at_once:
            self.next_deal(now)
            return True
        return self._maybe_next(now)

    def _maybe_next(self, now: float | None) -> bool:
        if self.is_over and not self.closed and self.ready and set(self.present()) <= self.ready:
            self.next_deal(now)
            return True
        return False

    def result(self) -> dict[str, Any]:
        """The ended deal's result: ``winner``, ``kind`` (how it ended) and ``multiplier``."""
        outcome = self.deal.outcome
        assert outcome is not None
        return game_result(outcome)

    def next_deal(self, now: float | None = None) -> None:
        """The next deal at this table (this one is over): the same seats, names, keys and
        clock; a new shuffle, whose first seat is the rules' own choice (R9, at random); the AIs
        play the seats handed to them."""
        self.past.append({**self.result(), "record": self.record()})
        del self.past[:-MAX_PAST]
        self.offset += self.entries
        self.deal_number += 1
        self.deal = Deal.shuffled(self.deal_seed(self.deal_number))
        self.log = []
        self.ready = set()
        self.passed = False
        self._texts = {}
        self._captured = None
        self._order_cache, self._ordered = [], (0, 0)
        self.written = None  # a new deck: the saved form is made whole again
        self._split = None
        self._note(TableEventKind.START, None)
        self.advance(now)

    def deal_seed(self, number: int) -> int:
        """The seed of the table's deal *number* (the first: the game's seed)."""
        if number == 1:
            return self.seed
        return random.Random(f"kowah-web/{self.seed}/deal/{number}").getrandbits(63)

    def say(self, seat: int, phrase: str, now: float) -> bool:
        """*seat*'s person says *phrase* (an id of :data:`~kowah.web.phrases.PHRASES`), unless
        they said :data:`PHRASES_PER_MINUTE` in the last minute. Whether it was said."""
        times = [moment for moment in self.said.get(seat, []) if moment > now - 60]
        if len(times) >= PHRASES_PER_MINUTE:
            self.said[seat] = times
            return False
        self.said[seat] = [*times, now]
        self._note(TableEventKind.PHRASE, seat, phrase)
        return True

    # -- views ----------------------------------------------------------------------------------

    def names(self, t: Translator, viewer: int | None) -> list[str]:
        """How each seat is named to *viewer*: "You", a person's name, "Seat 2" for a person
        without one, or "Seat 2 · AI (normal)" (a person's name instead of "Seat 2" once an AI
        plays for them)."""
        named = []
        given = self.given_names()
        for index in range(len(self.seats)):
            if index == viewer or self.is_person(index):
                named.append(t.seat_name(index, viewer=viewer, names=given))
            else:
                named.append(ai_seat(t, t.seat_name(index, names=given), self.opponents))
        return named

    def given_names(self) -> list[str | None]:
        """The names the people gave, ``None`` for a seat without one."""
        return [seat.name for seat in self.seats]

    def _event_text(self, t: Translator, event: Event, viewer: int | None) -> str:
        return t.event(event, viewer=viewer, names=self.given_names())

    def _table_text(self, t: Translator, event: TableEvent, viewer: int | None) -> str:
        mine, others = TABLE_TEXT[event.kind]
        said = {} if event.phrase is None else {"phrase": phrase_text(t, event.phrase)}
        if event.seat is None or event.seat == viewer:
            return t.sentence("web", mine if event.seat is not None else others, **said)
        label = self.seats[event.seat].name or self.names(t, None)[event.seat]
        # The catalogue picks the form: the label before a colon, the subject before a verb.
        return t.sentence("web", others, name=t.named(event.seat, self.given_names(), label=label), **said)

    def events(self, t: Translator, viewer: int | None) -> list[dict[str, Any]]:
        """The log as *viewer* saw it, each entry with its sentence in *t*'s language
        (cached: the log only grows, and only its new entries are told)."""
        told = self._texts.setdefault((t.language, t.codes, viewer), [])
        if len(told) == self.entries:
            return told
        deal = self.deal
        if viewer is not None:
            seen = deal.observation(viewer).events
        else:  # an onlooker sees each event as a seat that did not act does
            views = [deal.observation(seat).events for seat in range(SEATS)]
        code = _CODE
        for entry in self._order()[len(told):]:
            if isinstance(entry, TableEvent):
                told.append({"kind": entry.kind.value, "seat": entry.seat, "card": None,
                             "text": self._table_text(t, entry, viewer),
                             **({} if entry.phrase is None else {"phrase": entry.phrase})})
                continue
            if viewer is not None:
                event = seen[entry]
            else:
                event = views[0][entry]
                if event.seat is not None:
                    event = views[(event.seat + 1) % SEATS][entry]
            told.append({"kind": str(event.kind), "seat": event.seat,
                         "card": None if event.card is None else code[event.card],
                         "text": self._event_text(t, event, viewer)})
        return told

    def _order(self) -> list[int | TableEvent]:
        """The log's entries in order: a deal event's index, or a table event (logged after
        the deal's first ``at`` events). Extended as the log grows; read it, never change it."""
        order, (events, noted) = self._order_cache, self._ordered
        total, log = len(self.deal.events), self.log
        if (events, noted) == (total, len(log)):
            return order
        if noted < len(log) and log[noted].at < events:  # not a growing log: start again
            order, events, noted = [], 0, 0
        while events < total or noted < len(log):
            if noted < len(log) and (events == total or log[noted].at <= events):
                order.append(log[noted])
                noted += 1
            else:
                order.append(events)
                events += 1
        self._order_cache, self._ordered = order, (events, noted)
        return order

    @staticmethod
    def _table_view(deal: Deal, viewer: int | None) -> dict[str, Any]:
        """What *viewer* sees of the table in *deal* now (the fields that change with events):
        public information, and the viewer's own hand. Read from the deal directly, which is
        quicker than a whole observation; the tests check that both agree."""
        hands = [deal.hand(seat) for seat in range(SEATS)]
        latest = deal.latest_discard
        return {"turn": deal.turn, "phase": deal.phase.value, "to_move": list(deal.to_move()),
                "stock": deal.stock_count, "hand": None if viewer is None else _codes(hands[viewer]),
                "hand_sizes": [len(hand) for hand in hands],
                "latest_discard": None if latest is None else _CODE[latest],
                "discards": [_codes(deal.discards(seat)) for seat in range(SEATS)],
                "declared": [None if (wait := deal.declared_wait(seat)) is None else _CODE[wait]
                             for seat in range(SEATS)],
                "public_draws": [_DRAWN[who][card] for who, card in deal.public_draws]}

    def views_since(self, viewer: int | None, since: int) -> list[dict[str, Any]]:
        """For each log entry from *since* on, what *viewer* saw right after it (the events of
        one action share the view after the action), so that a client can play them back
        without working out the rules. Made by taking the last actions back on a copy."""
        order = self._order()[since:]
        if not order:
            return []
        needed = [item + 1 if isinstance(item, int) else item.at for item in order]
        if self._captured is not None and self._captured[0] == viewer:
            _viewer, base, captured = self._captured
            if captured and min(needed) > base and max(captured) == len(self.deal.events):
                counts = sorted(captured)
                return [captured[next(c for c in counts if c >= count)] for count in needed]
        deal = self.deal.copy()
        undone: list[Action] = []
        while len(deal.events) > min(needed):
            try:
                undone.append(deal.undo())
            except KowahError:
                break
        snapshots = {len(deal.events): self._table_view(deal, viewer)}
        for action in reversed(undone):
            deal.apply(action)
            snapshots[len(deal.events)] = self._table_view(deal, viewer)
        counts = sorted(snapshots)
        views = []
        for count in needed:
            at = next((c for c in counts if c >= count), counts[-1])
            views.append(snapshots[at])
        return views

    def seats_view(self, connected: Sequence[int] = (0, 0, 0)) -> list[dict[str, Any]]:
        """The seats as the state shows them (*connected*: open sockets per seat)."""
        return [{"seat": index, "name": seat.name, "kind": "person" if self.is_person(index) else "ai",
                 "joined": seat.joined, "left": seat.left, "handed_over": index in self.handed,
                 "connected": bool(connected[index]) if self.is_person(index) else None}
                for index, seat in enumerate(self.seats)]

    def state(self, lang: str | None = None, since: int = 0, *, seat: int | None = None,
              connected: Sequence[int] = (0, 0, 0), now: float | None = None,
              base_url: str = "", codes: bool = False) -> dict[str, Any]:
        """*seat*'s view (``None``: a spectator's) as a JSON-ready dict, its sentences in *lang*
        (default: the game's; with *codes*, cards named with their codes too). ``events`` holds
        this deal's entries from version *since* on (``events_from``: the version of the first;
        the table's earlier deals are in ``deals``)."""
        t = _words(lang or self.lang, codes)
        deal = self.deal
        view = deal.observation(0 if seat is None else seat)
        outcome = view.outcome
        events = self.events(t, seat)
        since = max(0, min(since - self.offset, len(events)))
        now = time.time() if now is None else now
        state: dict[str, Any] = {
            "format": STATE_FORMAT,
            "id": self.id,
            "version": self.version,
            "status": self.status.value,
            "lang": t.language,
            "opponents": self.opponents,
            "pack": "kowah",
            "seat": seat,
            "humans": self.humans,
            "seats": self.seats_view(connected),
            "players": self.names(t, seat),
            "turn_seconds": self.turn_seconds,
            "deadline": self.deadline,
            "seconds_left": None if self.deadline is None else max(0.0, round(self.deadline - now, 1)),
            "invites": self.invites(base_url) if seat == 0 and not self.started else [],
            "first": view.first,
            # The fields each event's view has too (views_since), from the one place.
            **self._table_view(deal, seat),
            "to_move": list(deal.to_move()) if self.started and not self.closed else [],
            "known": [_codes(cards) for cards in view.known],
            "legal": [dict(action.to_dict()) for action in self.legal(seat)],
            "outcome": None if outcome is None else outcome.as_dict(),
            "outcome_text": None if outcome is None else t.outcome(outcome, viewer=seat,
                                                                    names=self.given_names()),
            "winning_hand": None,
            "deal": self.deal_number,
            "deals": self.deals(t, seat, base_url),
            "ready": sorted(self.ready),
            "events_from": self.offset + since,
            "events": events[since:],
        }
        if since > 0:
            views = self.views_since(seat, since)
            state["events"] = [{**event, "view": view}
                               for event, view in zip(state["events"], views, strict=True)]
        if outcome is not None and outcome.winner is not None and outcome.card is not None:
            state["winning_hand"] = self._winning_hand(outcome.winner, outcome.card)
        state["said"] = state_sentences(t, state)
        return state

    def deals(self, t: Translator, viewer: int | None, base_url: str = "") -> list[dict[str, Any]]:
        """The earlier deals' results as *viewer* reads them: ``number``, ``winner``, ``kind``,
        ``multiplier``, ``text`` (the outcome's sentence) and the ``record``'s URL."""
        shown = []
        for number, past in enumerate(self.past, self.deal_number - len(self.past)):
            winner, card = past["winner"], past["card"]
            outcome = (Outcome.win(winner, past["kind"], Card.parse(card)) if winner is not None
                       else Outcome.drawn(past["kind"]))
            shown.append({"number": number, "winner": winner, "kind": past["kind"],
                          "multiplier": past["multiplier"],
                          "text": t.outcome(outcome, viewer=viewer, names=self.given_names()),
                          "record": f"{base_url}/api/games/{self.id}/record?deal={number}"})
        return shown

    def invites(self, base_url: str) -> list[dict[str, Any]]:
        """The invites of the people's seats not taken yet: seat, key and link."""
        return [{"seat": index, "token": seat.token,
                 "url": f"{base_url}/games/{self.id}#key={seat.token}"}
                for index, seat in enumerate(self.seats)
                if index and seat.person and not seat.joined and not seat.left]

    def _winning_hand(self, seat: int, card: Card) -> dict[str, Any]:
        """The winner's eight cards split as they won (two triples and the pair of the wait),
        and the winning card. Shown only at the end, when every hand may be shown."""
        if self._split is None:  # the deal is over: it does not change any more
            chosen = self.deal.winning_split()
            self._split = (tuple(tuple(group) for group in (*chosen.triples, chosen.pair))
                           if chosen is not None else (tuple(sorted(self.deal.hand(seat))),))
        return {"seat": seat, "groups": [_codes(group) for group in self._split], "card": str(card)}

    def hint(self, seat: int, lang: str | None = None, codes: bool = False) -> dict[str, Any]:
        """The coach's advice for *seat* now (:func:`kowah.coach.advise`, which reads that
        seat's observation only): the suggested action, the advice's lines in *lang*."""
        from kowah.coach import advise, describe

        t = _words(lang or self.lang, codes)
        view = self.deal.observation(seat)
        if not self.legal(seat):
            view = view.replace(legal_actions=())
        advice = advise(view)
        return {"version": self.version, "lang": t.language,
                "action": None if advice.action is None else advice.action.to_dict(),
                "lines": [line.strip() for line in describe(advice, t)],
                "advice": advice.as_dict()}

    # -- saving ---------------------------------------------------------------------------------

    def tags(self) -> dict[str, str]:
        """Who sat where, for the record's ``tags``."""
        t = words("en")
        names = self.names(t, None)
        return {f"seat{index}": name[:60] for index, name in enumerate(names)}

    def record(self) -> dict[str, Any]:
        """The deal's ``kowah-record/1`` object (give it out only once the deal is over), its
        ``tags`` naming who sat where."""
        return dict(Record.from_deal(self.deal, tags=self.tags()).to_dict())

    def saved_text(self) -> str:
        """Deprecated: :func:`kowah.web.saved.saved_text` (the saved format's one module)."""
        import warnings

        from kowah.web.saved import saved_text

        warnings.warn("Game.saved_text() is deprecated; use kowah.web.saved.saved_text(game)",
                      DeprecationWarning, stacklevel=2)
        return saved_text(self)

    def saved(self) -> dict[str, Any]:
        """Deprecated: :func:`kowah.web.saved.saved_data` (the saved format's one module)."""
        import warnings

        from kowah.web.saved import saved_data

        warnings.warn("Game.saved() is deprecated; use kowah.web.saved.saved_data(game)",
                      DeprecationWarning, stacklevel=2)
        return saved_data(self)


