"""One game of the browser table: the deal, the two AIs, and seat 0's view of it as JSON.

A :class:`Game` holds a deal, the AIs' strength, the language and the seed. After each action
of the person (seat 0) it lets the AIs play until the person must choose again, playing the
person's turns too once the hand is locked (R12). The AIs' randomness comes from the game's
seed and the move number, never from a process-wide stream, so a game restored from its
record plays on exactly as it would have.

:meth:`Game.state` is seat 0's observation and nothing more: the other hands and the stock
order appear only in the record, which is given out once the deal is over.

>>> game = Game.new(seed=7, opponents="random", lang="en")
>>> state = game.state()
>>> state["version"] == len(state["events"]), state["outcome"] is None
(True, True)
>>> all(action["seat"] == 0 for action in state["legal"])
True
"""

from __future__ import annotations

import random
import secrets
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from kowah.actions import SEATS, Action
from kowah.cards import Card
from kowah.deal import Deal, Observation
from kowah.events import Event
from kowah.hands import splits
from kowah.i18n import Translator
from kowah.players import HUMAN, PLAYERS, make_player
from kowah.record import Record
from kowah.web import engine
from kowah.web.text import outcome_text, player_name, words

__all__ = ["HUMAN", "STATE_FORMAT", "Game", "opponents_ok"]

#: The state's format, for other front ends.
STATE_FORMAT = "kowah-web-state/1"


def _codes(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _event(t: Translator, event: Event) -> dict[str, Any]:
    text = t.event(event, viewer=HUMAN)
    return {"kind": str(event.kind.value if hasattr(event.kind, "value") else event.kind),
            "seat": event.seat, "card": None if event.card is None else str(event.card),
            "text": text}


class Game:
    """A deal of the browser table (see the module's description)."""

    def __init__(self, game_id: str, deal: Deal, *, seed: int, opponents: str, lang: str,
                 created: float | None = None) -> None:
        self.id = game_id
        self.deal = deal
        self.seed = seed
        self.opponents = opponents
        self.lang = lang
        self.created = time.time() if created is None else created
        self.updated = self.created
        #: Action requests received, refused ones included (bounded by the store).
        self.requests = 0
        #: Held while the game changes, so two requests never interleave.
        self.lock = threading.Lock()
        self._texts: dict[str, list[dict[str, Any]]] = {}

    @classmethod
    def new(cls, *, seed: int | None = None, opponents: str = "normal", lang: str = "en",
            deck: Sequence[Card] | None = None, first: int | None = None,
            game_id: str | None = None) -> Game:
        """A new game; *seed* fixes the shuffle (unless *deck* is given) and the AIs' choices."""
        if seed is None:
            seed = secrets.randbits(63)
        deal = engine.new_deal(seed, deck, first)
        game = cls(game_id or secrets.token_urlsafe(16), deal, seed=seed, opponents=opponents,
                   lang=lang)
        game.advance()
        return game

    # -- playing --------------------------------------------------------------------------------

    @property
    def version(self) -> int:
        """The state's version: the number of events seat 0 has seen. Every action of the
        person adds at least one (a pass is always followed by the next seat's move)."""
        return len(self.deal.events)  # seat 0 sees every event, some with their card hidden

    @property
    def is_over(self) -> bool:
        return self.deal.is_over

    def rng(self, seat: int) -> random.Random:
        """The randomness of *seat*'s next choice: from the seed and the move number only."""
        return random.Random(f"kowah-web/{self.seed}/{len(self.deal.history)}/{seat}")

    def advance(self) -> None:
        """Let the AIs play until seat 0 must choose or the deal ends; a locked hand's turns
        (R12) are played for the person."""
        deal = self.deal
        while not deal.is_over:
            seat = deal.to_move()[0]
            if seat == HUMAN:
                legal = deal.legal_actions(HUMAN)
                if engine.declared_wait(deal, HUMAN) is None or len(legal) != 1:
                    return
                deal.apply(legal[0])
                continue
            player = make_player(self.opponents, self.rng(seat))
            view = deal.observation(seat)
            deal.apply(player.choose(view, view.legal_actions))

    def refusal(self, action: Action, t: Translator) -> engine.Refused | None:
        """Why the person may not take *action* now, or ``None``."""
        return engine.refusal(self.deal, action, t)

    def act(self, action: Action) -> None:
        """Apply the person's legal *action*, then let the table play on (see :meth:`advance`)."""
        self.deal.apply(action)
        self.advance()
        self.updated = time.time()

    # -- views ----------------------------------------------------------------------------------

    def events(self, t: Translator, view: Observation) -> list[dict[str, Any]]:
        """Seat 0's events with their sentences in *t*'s language (cached: events only grow)."""
        told = self._texts.setdefault(t.language, [])
        for event in view.events[len(told):]:
            told.append(_event(t, event))
        return told[:len(view.events)]

    def state(self, lang: str | None = None, since: int = 0) -> dict[str, Any]:
        """Seat 0's view as a JSON-ready dict, its sentences in *lang* (default: the game's).

        ``events`` holds the events from index *since* on (``events_from``).
        """
        t = words(lang or self.lang)
        deal = self.deal
        view = deal.observation(HUMAN)
        outcome = view.outcome
        events = self.events(t, view)
        since = max(0, min(since, len(events)))
        names = [player_name(t, seat, self.opponents) for seat in range(SEATS)]
        state: dict[str, Any] = {
            "format": STATE_FORMAT,
            "id": self.id,
            "version": len(view.events),
            "lang": t.language,
            "opponents": self.opponents,
            "pack": "kowah",
            "seat": HUMAN,
            "players": names,
            "first": view.first,
            "turn": view.turn,
            "phase": view.phase.value,
            "to_move": list(deal.to_move()),
            "stock": view.stock_count,
            "hand": _codes(view.hand),
            "hand_sizes": list(view.hand_sizes),
            "latest_discard": None if view.latest_discard is None else str(view.latest_discard),
            "discards": [_codes(pile) for pile in view.discards],
            "declared": [None if wait is None else str(wait)
                         for wait in (engine.declared_wait(deal, seat) for seat in range(SEATS))],
            "known": [_codes(cards) for cards in view.known],
            "public_draws": [[seat, str(card)] for seat, card in view.public_draws],
            "legal": [engine.action_to_dict(action) for action in view.legal_actions],
            "outcome": None if outcome is None else outcome.as_dict(),
            "outcome_text": None if outcome is None else outcome_text(t, outcome, HUMAN),
            "winning_hand": None,
            "events_from": since,
            "events": events[since:],
        }
        if outcome is not None and outcome.winner is not None and outcome.card is not None:
            state["winning_hand"] = self._winning_hand(outcome.winner, outcome.card)
        return state

    def _winning_hand(self, seat: int, card: Card) -> dict[str, Any]:
        """The winner's eight cards split as they won (two triples and the pair of the wait),
        and the winning card. Shown only at the end, when every hand may be shown."""
        hand = list(self.deal.hand(seat))
        if len(hand) > 8:  # a self-draw: the drawn card is in the hand
            hand.remove(card)
        chosen = None
        for split in splits(hand):
            if split.wait == card:
                chosen = split
                break
        groups = ([_codes(group) for group in (*chosen.triples, chosen.pair)] if chosen is not None
                  else [_codes(sorted(hand))])
        return {"seat": seat, "groups": groups, "card": str(card)}

    def hint(self, lang: str | None = None) -> dict[str, Any]:
        """The coach's advice for seat 0 now (:func:`kowah.coach.advise`, which reads seat 0's
        observation only): the suggested action, the advice's lines in *lang*, and the advice."""
        from kowah.coach import advise, describe

        t = words(lang or self.lang)
        advice = advise(self.deal.observation(HUMAN))
        return {"version": self.version, "lang": t.language,
                "action": None if advice.action is None else advice.action.to_dict(),
                "lines": [line.strip() for line in describe(advice, t)],
                "advice": advice.as_dict()}

    # -- saving ---------------------------------------------------------------------------------

    def record(self) -> dict[str, Any]:
        """The deal's ``kowah-record/1`` object (give it out only once the deal is over)."""
        return dict(Record.from_deal(self.deal).to_dict())

    def saved(self) -> dict[str, Any]:
        """The record plus the keys that restore the game exactly (readers ignore extra keys)."""
        data = self.record()
        data["kowah-web"] = {"id": self.id, "seed": self.seed, "opponents": self.opponents,
                             "lang": self.lang, "created": self.created, "updated": self.updated,
                             "requests": self.requests}
        return data

    @classmethod
    def restore(cls, data: Mapping[str, Any]) -> Game:
        """The game that :meth:`saved` wrote: the record replayed, the AIs as they were."""
        extra = data.get("kowah-web")
        if not isinstance(extra, Mapping):
            from kowah.errors import N_, RecordError

            raise RecordError(N_("error", "missing key {key!r}"), key="kowah-web")
        deal = Record.from_dict(data).replay()
        game = cls(str(extra["id"]), deal, seed=int(extra["seed"]), opponents=str(extra["opponents"]),
                   lang=str(extra["lang"]), created=float(extra.get("created", time.time())))
        game.updated = float(extra.get("updated", game.created))
        game.requests = int(extra.get("requests", 0))
        game.advance()  # a crash between an action and the AIs' replies: they reply now
        return game


def opponents_ok(name: object) -> bool:
    """Whether *name* is one of the AI strengths (:data:`kowah.players.PLAYERS`)."""
    return isinstance(name, str) and name in PLAYERS


