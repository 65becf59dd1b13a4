"""The coach: what the ``hard`` player would do in a seat's place, and why.

:func:`advise` reads one :class:`~kowah.deal.Observation` (what the seat may know, nothing
more) and returns an :class:`Advice`, a frozen value with these fields:

``Advice.seat`` (int)
    The seat advised (the observation's seat).
``Advice.action`` (:class:`~kowah.actions.Action` or ``None``)
    What :class:`~kowah.players.HardPlayer` would do now; ``None`` when the seat has no
    legal action (another seat's turn, or the deal is over). Where ``hard`` would pick at
    random among equally good discards, the advice takes the first in card order.
``Advice.distance`` (int)
    The hand's distance to ready now (:func:`~kowah.hands.distance`; for nine cards, after
    the best discard). 0 means ready.
``Advice.discards`` (tuple of :class:`DiscardAdvice`)
    When the seat must discard: one entry per card it may discard (each card once; never
    the card just taken, R10), the suggested one first, then in ``hard``'s order of
    preference. Empty otherwise. Each entry has:

    * ``card``: the card discarded;
    * ``distance``: the distance to ready of the eight cards left;
    * ``improving``: how many unseen copies there are of the cards that would bring those
      eight cards closer to ready (0 when they are ready);
    * ``waits``: when the eight cards left are ready, each wait they offer as a
      :class:`WaitAdvice` (most live copies first); empty otherwise;
    * ``feeds``: whether the card is another declared seat's wait, so that discarding it
      hands that seat a ×2 win at once (R14);
    * ``best``: whether ``hard`` rates it best (several entries may be, in a tie).
``Advice.waits`` (tuple of :class:`WaitAdvice`)
    When the seat may declare: each wait it may expose with its live copies, most first
    (``action`` is the declaration of the first, or a pass when every wait is dead: a
    locked hand with a dead wait can never win, R12). Empty otherwise.
``Advice.take`` (:class:`TakeAdvice` or ``None``)
    When the seat may take the latest discard instead of drawing: the card, and whether
    taking it brings the hand closer to ready (``hard`` takes it exactly then). ``None``
    otherwise.

Every value has ``as_dict()``, its JSON form with cards as codes (``"5c"``) and the action in
the record's form (``{"seat": 0, "do": "discard", "card": "9m"}``).

A :class:`WaitAdvice` has ``card`` (the wait) and ``live`` (its copies the seat has not
seen: in the stock or concealed in another hand). *Unseen* and *live* mean the same here:
the four copies of a card, less those in the seat's hand, in the discards, and known to be
in another seat's hand (:meth:`~kowah.deal.Observation.unseen`).

>>> from kowah import Action, Deal
>>> deal = Deal.shuffled(seed=0)
>>> seat = deal.actor
>>> advise(deal.observation(seat)).action == Action.draw(seat)  # the opening turn draws
True
>>> _ = deal.apply(Action.draw(seat))
>>> advice = advise(deal.observation(seat))
>>> advice.action == Action.discard(seat, advice.discards[0].card), advice.discards[0].best
(True, True)
>>> len(advice.discards) == len(set(deal.hand(seat)))
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

import attrs

from kowah import _heuristic as h
from kowah import hands
from kowah._value import Value
from kowah.actions import Action, ActionDict, ActionKind
from kowah.cards import Card
from kowah.deal import Observation
from kowah.errors import N_, KowahError, KowahTypeError, shorten

if TYPE_CHECKING:  # the text layer, above this one: for the annotation only
    from kowah.i18n import Words

__all__ = [
    "Advice",
    "AdviceDict",
    "DiscardAdvice",
    "DiscardDict",
    "TakeAdvice",
    "TakeDict",
    "WaitAdvice",
    "WaitDict",
    "advise",
    "describe",
]


class WaitDict(TypedDict):
    """The JSON form of a :class:`WaitAdvice`."""

    card: str
    live: int


class DiscardDict(TypedDict):
    """The JSON form of a :class:`DiscardAdvice`."""

    card: str
    distance: int
    improving: int
    waits: list[WaitDict]
    feeds: bool
    best: bool


class TakeDict(TypedDict):
    """The JSON form of a :class:`TakeAdvice`."""

    card: str
    improves: bool


class AdviceDict(TypedDict):
    """The JSON form of an :class:`Advice`."""

    seat: int
    action: ActionDict | None
    distance: int
    discards: list[DiscardDict]
    waits: list[WaitDict]
    take: TakeDict | None


def _check(name: str, value: object, expected: type | tuple[type, ...], label: str) -> None:
    """Refuse a field of the wrong type (a bool is no int here)."""
    if not isinstance(value, expected) or (isinstance(value, bool) and expected is int):
        raise KowahTypeError(N_("error", "{name} must be of type {expected}, not {value} of type {type}"),
                             name=name, expected=label, value=shorten(value), type=type(value).__name__)


def _count(name: str, value: object) -> int:
    _check(name, value, int, "int")
    assert isinstance(value, int)
    if value < 0:
        raise KowahError(N_("error", "{name} must be 0 or more, not {value}"), name=name, value=value)
    return value


def _items(name: str, value: object, kind: type, label: str) -> tuple[object, ...]:
    _check(name, value, tuple, f"tuple of {label}")
    assert isinstance(value, tuple)
    for item in value:
        _check(name, item, kind, f"tuple of {label}")
    return value


@attrs.frozen(init=False)
class WaitAdvice(Value):
    """A wait and its live copies (copies the seat has not seen).

    >>> WaitAdvice(Card.C5, 2)
    WaitAdvice(card=Card.C5, live=2)
    """

    #: The wait.
    card: Card
    #: Its copies the seat has not seen.
    live: int

    def __init__(self, card: Card, live: int) -> None:
        _check("WaitAdvice.card", card, Card, "Card")
        self.__attrs_init__(card=card, live=_count("WaitAdvice.live", live))

    def as_dict(self) -> WaitDict:
        """``{"card": "5c", "live": 2}``."""
        return {"card": str(self.card), "live": self.live}


@attrs.frozen(init=False)
class DiscardAdvice(Value):
    """What one discard leaves (see the module description for each field)."""

    card: Card
    distance: int
    improving: int
    waits: tuple[WaitAdvice, ...]
    feeds: bool
    best: bool

    def __init__(self, card: Card, distance: int, improving: int, waits: tuple[WaitAdvice, ...],
                 feeds: bool, best: bool) -> None:
        _check("DiscardAdvice.card", card, Card, "Card")
        _items("DiscardAdvice.waits", waits, WaitAdvice, "WaitAdvice")
        _check("DiscardAdvice.feeds", feeds, bool, "bool")
        _check("DiscardAdvice.best", best, bool, "bool")
        self.__attrs_init__(card=card, distance=_count("DiscardAdvice.distance", distance),
                            improving=_count("DiscardAdvice.improving", improving), waits=waits, feeds=feeds,
                            best=best)

    def as_dict(self) -> DiscardDict:
        """The fields, with cards as codes: ``{"card": "9m", "distance": 1, "improving": 17,
        "waits": [], "feeds": false, "best": true}``."""
        return {"card": str(self.card), "distance": self.distance, "improving": self.improving,
                "waits": [wait.as_dict() for wait in self.waits], "feeds": self.feeds, "best": self.best}


@attrs.frozen(init=False)
class TakeAdvice(Value):
    """The latest discard, and whether taking it brings the hand closer to ready."""

    card: Card
    improves: bool

    def __init__(self, card: Card, improves: bool) -> None:
        _check("TakeAdvice.card", card, Card, "Card")
        _check("TakeAdvice.improves", improves, bool, "bool")
        self.__attrs_init__(card=card, improves=improves)

    def as_dict(self) -> TakeDict:
        """``{"card": "5c", "improves": true}``."""
        return {"card": str(self.card), "improves": self.improves}


@attrs.frozen(init=False)
class Advice(Value):
    """What ``hard`` would do, and why (see the module description for each field).

    :meth:`as_dict` is the JSON form, for a browser: the same fields, cards as their codes
    (R3) and the action in the record's own form (:meth:`~kowah.Action.to_dict`).

    >>> from kowah import Deal
    >>> deal = Deal.shuffled(seed=0)
    >>> advise(deal.observation(deal.actor)).as_dict()
    {'seat': 1, 'action': {'seat': 1, 'do': 'draw'}, 'distance': 3, 'discards': [], 'waits': [], 'take': None}
    """

    seat: int
    action: Action | None
    distance: int
    discards: tuple[DiscardAdvice, ...]
    waits: tuple[WaitAdvice, ...]
    take: TakeAdvice | None

    def __init__(self, seat: int, action: Action | None, distance: int,
                 discards: tuple[DiscardAdvice, ...] = (), waits: tuple[WaitAdvice, ...] = (),
                 take: TakeAdvice | None = None) -> None:
        if action is not None:
            _check("Advice.action", action, Action, "Action or None")
        _items("Advice.discards", discards, DiscardAdvice, "DiscardAdvice")
        _items("Advice.waits", waits, WaitAdvice, "WaitAdvice")
        if take is not None:
            _check("Advice.take", take, TakeAdvice, "TakeAdvice or None")
        self.__attrs_init__(seat=_count("Advice.seat", seat), action=action,
                            distance=_count("Advice.distance", distance), discards=discards, waits=waits,
                            take=take)

    def as_dict(self) -> AdviceDict:
        """The advice as JSON-ready values (see the class description)."""
        return {
            "seat": self.seat,
            "action": None if self.action is None else self.action.to_dict(),
            "distance": self.distance,
            "discards": [option.as_dict() for option in self.discards],
            "waits": [wait.as_dict() for wait in self.waits],
            "take": None if self.take is None else self.take.as_dict(),
        }


def _waits(cards: list[Card], live: list[int]) -> tuple[WaitAdvice, ...]:
    ordered = sorted(cards, key=lambda card: (-live[card], card))
    return tuple(WaitAdvice(card, live[card]) for card in ordered)


def advise(observation: Observation) -> Advice:
    """What ``hard`` would do in *observation*'s seat, and why (see the module description).

    >>> from kowah import parse_cards
    >>> from kowah import Action, Deal
    >>> hand = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c 1m")  # ready, less a stray 1m
    >>> rest = list(Deal.shuffled(0).deck)
    >>> for card in hand:
    ...     rest.remove(card)
    >>> deal = Deal([*hand[:8], *rest[:16], hand[8], *rest[16:]], 0)
    >>> _ = deal.apply(Action.draw(0))
    >>> advice = advise(deal.observation(0))
    >>> advice.action, advice.distance
    (Action.discard(0, Card.M1), 0)
    >>> first = advice.discards[0]
    >>> first.card, first.distance, [wait.card for wait in first.waits]
    (Card.M1, 0, [Card.C5, Card.S5])
    >>> _ = deal.apply(advice.action)
    >>> advise(deal.observation(0)).waits
    (WaitAdvice(card=Card.C5, live=2), WaitAdvice(card=Card.S5, live=2))
    """
    seat = observation.seat
    legal = observation.legal_actions
    pack = observation.rules.pack
    hand = tuple(int(card) for card in sorted(observation.hand))
    distance = hands.distance(observation.hand, pack) if len(hand) in (8, 9) else 0
    if not legal:
        return Advice(seat, None, distance)
    live = h.unseen(observation)
    kind = legal[0].kind
    if kind is h.DECLARE or kind is h.PASS:
        waits = _waits([action.card for action in legal if action.card is not None], live)
        choice = h.declare_choice(legal, live)
        return Advice(seat, choice if choice is not None else Action.pass_(seat), distance, waits=waits)
    if kind is h.DRAW or kind is h.TAKE:
        latest = observation.latest_discard
        if latest is None or not any(action.kind is h.TAKE for action in legal):
            return Advice(seat, Action.draw(seat), distance)
        improves = h.improves(hand, latest, pack)
        action = Action.take(seat) if improves else Action.draw(seat)
        return Advice(seat, action, distance, take=TakeAdvice(latest, improves))
    options = [int(action.card) for action in legal if action.card is not None]
    avoided = h.avoid(observation)
    ties = set(h.best_discards(hand, options, live, avoided, pack))  # exactly hard's choices
    scored = h.discard_scores(hand, options, live, avoided, every=True, pack=pack)
    ranked = sorted(scored, key=lambda item: (item[1] not in ties, [-value for value in item[0]], item[1]))
    discards = []
    for score, card in ranked:
        rest = h.without(hand, card)
        offered = h.ready_waits(rest, pack)
        discards.append(DiscardAdvice(
            card=Card(card),
            distance=0 if offered else 8 - h.kept(rest, pack),
            improving=0 if offered else score[2],
            waits=_waits(list(offered), live) if offered else (),
            feeds=card in avoided,
            best=card in ties,
        ))
    return Advice(seat, Action.discard(seat, discards[0].card), distance, discards=tuple(discards))


# -- the advice in words ----------------------------------------------------------------------
# Cards are named (Words.card): "object" after a verb, "name" on their own (before a colon, in
# the list of waits).


def _wait_list(t: Words, waits: tuple[WaitAdvice, ...]) -> str:
    return t.format_list([t.ngettext("coach", "{card} ({count} copy left)", "{card} ({count} copies left)",
                                     wait.live).format(card=t.card(wait.card), count=wait.live)
                          for wait in waits])


def describe(advice: Advice, t: Words, limit: int = 4) -> list[str]:
    """The advice as lines of text in *t*'s language: the suggestion, then its reasons (at
    most *limit* discards). Cards are named, never given as codes (unless *t* shows codes,
    :attr:`kowah.i18n.Translator.codes`).

    >>> from kowah.i18n import translator
    >>> from kowah import Deal
    >>> deal = Deal.shuffled(seed=0)
    >>> describe(advise(deal.observation(deal.actor)), translator("en"))
    ['Hint: draw from the stock.']
    """
    action = advice.action
    if action is None:
        return [t.gettext("coach", "Hint: there is nothing to do now.")]
    kind = action.kind
    lines: list[str] = []
    if kind is ActionKind.DECLARE and action.card is not None:
        lines.append(t.gettext("coach", "Hint: declare checki, waiting for {card}.").format(
            card=t.card(action.card, "object")))
    elif kind is ActionKind.PASS:
        lines.append(t.gettext("coach", "Hint: do not declare: no copy of your waits is left."))
    elif kind is ActionKind.TAKE and advice.take is not None:  # the take's card: the latest discard
        lines.append(t.gettext("coach", "Hint: take {card}: it brings your hand closer to ready.").format(
            card=t.card(advice.take.card, "object")))
    elif kind is ActionKind.DRAW and advice.take is not None:
        lines.append(t.gettext("coach", "Hint: draw from the stock rather than take {card}: it would "
                                        "not bring your hand closer to ready.").format(
            card=t.card(advice.take.card, "object")))
    elif kind is ActionKind.DISCARD and action.card is not None:
        lines.append(t.gettext("coach", "Hint: discard {card}.").format(card=t.card(action.card, "object")))
    else:
        lines.append(t.gettext("coach", "Hint: draw from the stock."))
    if advice.waits:
        lines.append(t.gettext("coach", "Waits: {waits}.").format(waits=_wait_list(t, advice.waits)))
    for option in advice.discards[:limit]:
        name = t.card(option.card)
        if option.feeds:
            line = t.gettext("coach", "{card}: a declared player waits for this card and would win at "
                                      "once.").format(card=name)
        elif option.distance == 0:
            line = t.gettext("coach", "{card}: ready; waits: {waits}.").format(
                card=name, waits=_wait_list(t, option.waits))
        else:
            away = t.ngettext("coach", "{count} card from ready", "{count} cards from ready",
                              option.distance).format(count=option.distance)
            helping = t.ngettext("coach", "{count} unseen card would help",
                                 "{count} unseen cards would help", option.improving).format(
                count=option.improving)
            line = t.gettext("coach", "{card}: {distance}, {help}.").format(
                card=name, distance=away, help=helping)
        lines.append("  " + line)
    return lines
