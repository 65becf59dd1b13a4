"""AI players for Kowah: a small protocol and four levels, ``random``, ``easy``, ``normal``, ``hard``.

A :class:`Player` sees only what its seat may know, an :class:`~kowah.Observation`,
and the legal actions, and returns one of them. Every player takes an injected
:class:`random.Random`; none touches the global random state, so a seeded player is
reproducible. :func:`make_player` makes one by name; :mod:`kowah.simulation` plays them
against each other, and :mod:`kowah.coach` explains what ``hard`` would do.

>>> import random
>>> from kowah import Deal
>>> from kowah.simulation import play_deal
>>> players = [make_player(name, random.Random(seat))
...            for seat, name in enumerate(("hard", "easy", "random"))]
>>> play_deal(players, Deal.shuffled(seed=4)).is_over
True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from kowah import _heuristic as h
from kowah._levels import NAMES
from kowah.actions import Action
from kowah.cards import KOWAH_DECK, Card
from kowah.deal import Observation
from kowah.errors import N_, KowahError, KowahTypeError, shorten

__all__ = [
    "HUMAN",
    "PLAYERS",
    "EasyPlayer",
    "HardPlayer",
    "NormalPlayer",
    "Player",
    "RandomPlayer",
    "UnknownPlayerError",
    "make_player",
]

#: The names :func:`make_player` knows, weakest first.
PLAYERS = NAMES

#: The seat of the person at the library's own tables (the terminal game and the browser
#: table): seat 0, against AI players at seats 1 and 2.
HUMAN = 0

_UNKNOWN = N_("error", "unknown player {value!r} (choose random, easy, normal or hard)")


class UnknownPlayerError(KowahError):
    """:func:`make_player` or :func:`~kowah.simulation.simulate` was given a player name it
    does not know; ``params["value"]`` is the name.

    >>> print(UnknownPlayerError.naming("expert"))
    unknown player 'expert' (choose random, easy, normal or hard)
    """

    @classmethod
    def naming(cls, value: object) -> UnknownPlayerError:
        """The error for the unknown player name *value* (the one place its message is written)."""
        return cls(_UNKNOWN, value=value)


@runtime_checkable
class Player(Protocol):
    """What an AI (or a person at a terminal) must be: a name, and a way to pick one of the
    legal actions.

    A player sees only *observation* (what its seat may know) and *legal_actions*; it never
    sees the :class:`~kowah.deal.Deal`. The built-in players are named after their level
    (``"hard"``); :func:`~kowah.simulation.simulate` reports a seat by its player's name.
    """

    @property
    def name(self) -> str:
        """A short name for the player, such as ``"hard"``."""
        ...

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        """One action out of *legal_actions*."""
        ...


def _nothing_to_choose(observation: Observation) -> KowahError:
    """The error of a built-in player asked to act by a seat that has no legal action."""
    seat = observation.seat if isinstance(observation, Observation) else None
    return KowahError(N_("error", "seat {seat} has no legal action now: ask the seat that acts "
                                  "(deal.actor)"), seat=seat)


class RandomPlayer:
    """Picks uniformly among the legal actions (for tests: it almost never wins).

    >>> import random
    >>> from kowah import Deal
    >>> deal = Deal.shuffled(seed=2)
    >>> seat = deal.actor
    >>> RandomPlayer(random.Random(0)).choose(deal.observation(seat), deal.legal_actions(seat))
    Action.draw(2)
    """

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        """A uniformly random legal action."""
        if not legal_actions:
            raise _nothing_to_choose(observation)
        return legal_actions[int(self.rng.random() * len(legal_actions))]


class HardPlayer:
    """The strongest level: distance to ready first, then the live copies that help.

    * Discards: never a declared seat's wait when there is another choice (that would hand
      it a ×2 win, R14); then the discard that leaves the hand nearest to ready; then the one
      whose improving cards have the most unseen copies, or for a ready hand the wait with
      the most live copies. Exact ties are broken by the injected random generator.
    * Takes the latest discard only when it brings the hand closer to ready.
    * Declares whenever it may, with the wait that has the most live copies, unless every
      wait is dead: declaring locks the hand (R12), but no hand wins without it.

    No fair player measured plays clearly better.

    >>> import random
    >>> from kowah import Deal, Action
    >>> deal = Deal.shuffled(seed=0)
    >>> seat = deal.actor
    >>> _ = deal.apply(Action.draw(seat))
    >>> action = HardPlayer(random.Random(0)).choose(deal.observation(seat), deal.legal_actions(seat))
    >>> action.kind.value, action in deal.legal_actions(seat)
    ('discard', True)
    """

    name = "hard"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.pack = KOWAH_DECK  # the pack of the deal it plays, set by choose

    def choose(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        """The level's action (see the class description); with no legal action (the seat
        cannot act now), :class:`~kowah.errors.KowahError`."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        if not legal_actions:
            raise _nothing_to_choose(observation)
        first = legal_actions[0]
        kind = first.kind
        seat = observation.seat
        if kind is h.DECLARE or kind is h.PASS:
            choice = self.declaration(legal_actions, h.unseen(observation))
            return choice if choice is not None else Action.pass_(seat)
        hand = tuple(observation.hand)
        self.pack = observation.rules.pack
        if kind is h.DRAW:
            latest = observation.latest_discard
            if (latest is not None and any(action.kind is h.TAKE for action in legal_actions)
                    and self.takes(hand, latest)):
                return Action.take(seat)
            return first
        # Discard: the options are the legal discards (never the card just taken, R10).
        options = [int(action.card) for action in legal_actions if action.card is not None]
        ties = self.discards(hand, options, observation)
        card = ties[0] if len(ties) == 1 else ties[int(self.rng.random() * len(ties))]
        return Action.discard(seat, Card(card))

    def takes(self, hand: tuple[int, ...], latest: Card) -> bool:
        """Whether to take *latest* rather than draw: when it brings the hand closer to ready."""
        return h.improves(hand, latest, self.pack)

    def discards(self, hand: tuple[int, ...], options: list[int], observation: Observation) -> list[int]:
        """The discards of the nine cards *hand* this level rates best (ties, in card order)."""
        return h.best_discards(hand, options, h.unseen(observation), h.avoid(observation),
                               observation.rules.pack)

    def declaration(self, legal_actions: tuple[Action, ...], live: list[int]) -> Action | None:
        """The declaration to make, or ``None`` to pass."""
        return h.declare_choice(legal_actions, live)


class NormalPlayer(HardPlayer):
    """A middle level: :class:`HardPlayer` that does not count live copies and takes less.

    It discards as ``hard`` does, never a declared seat's wait when it has a choice and
    always towards the nearest ready hand (a ready hand counts only with a wait that can
    still come), but among the discards that leave the hand equally near it picks at
    random, without weighing how many copies of the helping cards are still unseen. It
    declares as soon as its hand is ready, with any of its waits, without counting the
    copies left. It takes the latest discard only when ``hard`` would and the card either
    matches one it holds (a pair or a triple of that very card) or makes the hand ready.

    >>> import random
    >>> make_player("normal", random.Random(1)).name
    'normal'
    """

    name = "normal"

    def takes(self, hand: tuple[int, ...], latest: Card) -> bool:
        """When *latest* improves the hand and matches a card held, or makes the hand ready."""
        return (latest in hand or h.kept(hand, self.pack) >= 7) and h.improves(hand, latest, self.pack)

    def discards(self, hand: tuple[int, ...], options: list[int], observation: Observation) -> list[int]:
        """Every discard that leaves the hand nearest to ready (and feeds no declared seat)."""
        scored = h.discard_scores(hand, options, h.unseen(observation), h.avoid(observation),
                                  pack=observation.rules.pack)
        top = max(score[:2] for score, _ in scored)
        return [card for score, card in scored if score[:2] == top]

    def declaration(self, legal_actions: tuple[Action, ...], live: list[int]) -> Action | None:
        """Any of the hand's waits, at random: it does not count the copies left."""
        options = [action for action in legal_actions if action.card is not None]
        return options[int(self.rng.random() * len(options))] if options else None


class EasyPlayer(NormalPlayer):
    """A beginner: it plays towards a ready hand but never takes a discard.

    It always draws from the stock, discards like ``normal`` but without minding the
    declared seats' waits (it may feed one a ×2 win, R14), and declares like ``normal``,
    as soon as its hand is ready, with any of its waits.

    >>> import random
    >>> make_player("easy", random.Random(1)).name
    'easy'
    """

    name = "easy"

    def takes(self, hand: tuple[int, ...], latest: Card) -> bool:
        """Never: an easy player always draws from the stock."""
        return False

    def discards(self, hand: tuple[int, ...], options: list[int], observation: Observation) -> list[int]:
        """Every discard that leaves the hand nearest to ready, whoever it may feed."""
        scored = h.discard_scores(hand, options, h.unseen(observation), frozenset(),
                                  pack=observation.rules.pack)
        top = max(score[:2] for score, _ in scored)
        return [card for score, card in scored if score[:2] == top]


_LEVELS: dict[str, type[RandomPlayer] | type[HardPlayer]] = {
    "random": RandomPlayer, "easy": EasyPlayer, "normal": NormalPlayer, "hard": HardPlayer,
}


def make_player(name: str, rng: random.Random) -> Player:
    """The player called *name* (one of :data:`PLAYERS`, in any case), seeded by *rng*.

    >>> import random
    >>> make_player("Hard", random.Random(1)).name
    'hard'
    >>> make_player("expert", random.Random(1))
    Traceback (most recent call last):
    ...
    kowah.players.UnknownPlayerError: unknown player 'expert' (choose random, easy, normal or hard)
    >>> make_player("random", None)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahTypeError: a player's rng must be a random.Random, not None of type NoneType
    """
    if not isinstance(name, str):
        raise KowahTypeError(N_("error", "a player's name must be text, such as 'hard', not {value} "
                                         "of type {type}"), value=shorten(name), type=type(name).__name__)
    if not isinstance(rng, random.Random):
        raise KowahTypeError(N_("error", "a player's rng must be a random.Random, not {value} of type "
                                         "{type}"), value=shorten(rng), type=type(rng).__name__)
    level = _LEVELS.get(name.strip().lower())
    if level is None:
        raise UnknownPlayerError.naming(name)
    return level(rng)
