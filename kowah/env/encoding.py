"""The observation encoding: what one seat may know, as a vector of small integers.

:func:`encode` turns an :class:`~kowah.Observation` into a flat ``int8`` vector of
:data:`SIZE` entries, made of the named *planes* of :data:`PLANES`. A plane is a run of
entries; most are one entry per card kind (33: the money pack's kinds, so that the shape
does not change with the pack), some one per seat or per position in a pile. Seats are
counted from the observing seat: 0 is that seat, 1 the seat after it, 2 the seat before it
(R9's rotation), so that one policy can play every seat.

============== ======= ======= =========================================================
plane          entries range   what
============== ======= ======= =========================================================
hand           33      0–4     copies of each card in the seat's hand
known          3 × 33  0–4     copies known to be in each seat's hand: its exposed pair,
                               cards it took from the discards and its public draws (R13),
                               not discarded since (the seat's own row is what the others
                               know of its hand)
discards       3 × 33  0–4     copies of each card lying in each seat's discards
declared       3 × 33  0–1     each seat's public wait once it has declared (R11)
latest         33      0–1     the latest discard while it may be taken (R10)
pile           3 × 108 0–33    each seat's discards in order, oldest first, as card index
                               + 1; 0 past the pile's end (a taken card leaves the pile)
public_draws   3 × 108 0–33    each seat's stock draws shown to all (R13), in order, as
                               card index + 1; 0 past the last
stock          1       0–108   cards left in the stock
turn           3       0–1     the seat whose turn it is (to draw or take, or to discard)
phase          3       0–1     where that seat stands: must draw or take, must discard,
                               the deal is over (:class:`~kowah.Phase`)
first          3       0–1     the seat that opened the deal (R9)
hand_sizes     3       0–9     how many cards each seat holds
takes          1       0–127   turns in a row without a stock draw, each a take (R17)
declare        1       0–1     1 when this seat must declare or pass now: it has just
                               discarded into a ready hand (R11); the turn and phase
                               planes then already show the next seat's turn
============== ======= ======= =========================================================

Card indices are :class:`~kowah.cards.Card` values (``1c`` is 0, ``mk`` 32). Piles and public
draws are 108 long, the longest stock of a pack (V1). Nothing else is in the vector: the
other seats' concealed cards and the order of the stock never are, whatever the deal. Which
actions are legal is the separate ``action_mask`` (:func:`mask`).

>>> from kowah import Action, Deal
>>> deal = Deal.shuffled(seed=3)
>>> vector = encode(deal.observation(1))
>>> vector.shape, vector.dtype, SIZE
((1026,), dtype('int8'), 1026)
>>> int(vector[PLANES["hand"]].sum()), int(vector[PLANES["stock"]][0])
(8, 96)
>>> [int(x) for x in vector[PLANES["turn"]]], [int(x) for x in vector[PLANES["phase"]]]
([1, 0, 0], [1, 0, 0])
>>> [int(i) for i in mask(deal.legal_actions(1)).nonzero()[0]]
[0]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

import numpy as np

from kowah.actions import SEATS, Action, ActionKind
from kowah.cards import Card
from kowah.env.ids import IDS, N_ACTIONS
from kowah.events import Event, EventKind, Phase
from kowah.hands import HAND_SIZE

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from kowah.deal import Deal, Observation

__all__ = ["COPIES", "HIGH", "PILE_LENGTH", "PLANES", "SIZE", "Encoder", "encode", "mask", "rotation"]

#: Card kinds: one entry per kind in a card plane (the money pack's 33, V1).
KINDS: Final = len(Card)
#: The most copies of a card kind in a pack the environment plays (R1: four).
COPIES: Final = 4
#: The length of a pile plane and a public-draws plane: the longest stock of a pack (V1).
PILE_LENGTH: Final = KINDS * COPIES - SEATS * HAND_SIZE
#: The most a take counter shows (the entries are ``int8``).
TAKES_HIGH: Final = 127

_SIZES: Final = (
    ("hand", KINDS, COPIES),
    ("known", SEATS * KINDS, COPIES),
    ("discards", SEATS * KINDS, COPIES),
    ("declared", SEATS * KINDS, 1),
    ("latest", KINDS, 1),
    ("pile", SEATS * PILE_LENGTH, KINDS),
    ("public_draws", SEATS * PILE_LENGTH, KINDS),
    ("stock", 1, PILE_LENGTH),
    ("turn", SEATS, 1),
    ("phase", 3, 1),
    ("first", SEATS, 1),
    ("hand_sizes", SEATS, HAND_SIZE + 1),
    ("takes", 1, TAKES_HIGH),
    ("declare", 1, 1),
)


def _layout() -> tuple[dict[str, slice], list[int]]:
    planes: dict[str, slice] = {}
    high: list[int] = []
    start = 0
    for name, size, top in _SIZES:
        planes[name] = slice(start, start + size)
        high += [top] * size
        start += size
    return planes, high


_PLANES, _HIGH = _layout()
#: Each plane's entries in the vector, by name (see the table above).
PLANES: Final[dict[str, slice]] = _PLANES
#: The length of the observation vector.
SIZE: Final = len(_HIGH)
#: The largest value of each entry (the smallest is 0): the observation ``Box``'s ``high``.
HIGH: Final = np.array(_HIGH, dtype=np.int8)

_HAND = PLANES["hand"].start
_KNOWN = PLANES["known"].start
_DISCARDS = PLANES["discards"].start
_DECLARED = PLANES["declared"].start
_LATEST = PLANES["latest"].start
_PILE = PLANES["pile"].start
_PUBLIC = PLANES["public_draws"].start
_STOCK = PLANES["stock"].start
_TURN = PLANES["turn"].start
_PHASE = PLANES["phase"].start
_FIRST = PLANES["first"].start
_SIZES_AT = PLANES["hand_sizes"].start
_TAKES = PLANES["takes"].start
_DECLARING = PLANES["declare"].start
# Where an Encoder's buffer keeps each seat's declare flag, after the three hands.
_FLAGS: Final = SIZE + SEATS * KINDS
_PHASES: Final = {Phase.START: 0, Phase.DISCARD: 1, Phase.OVER: 2}
_BEFORE: Final = (2, 0, 1)  # the previous seat in rotation (R9)
# Enum members as module names: each lookup through the class costs more, per event.
_DISCARD, _DRAW, _TAKE, _DECLARE = EventKind.DISCARD, EventKind.DRAW, EventKind.TAKE, EventKind.DECLARE


def rotation(seat: int) -> tuple[int, int, int]:
    """Where each seat (0, 1, 2) is counted from *seat*: 0 itself, 1 the next, 2 the previous.

    >>> rotation(0), rotation(1), rotation(2)
    ((0, 1, 2), (2, 0, 1), (1, 2, 0))
    """
    return ((0 - seat) % SEATS, (1 - seat) % SEATS, (2 - seat) % SEATS)


_ROTATIONS: Final = tuple(rotation(seat) for seat in range(SEATS))


def _takes_in_a_row(events: Sequence[Event]) -> int:
    """The turns since the last stock draw, each a take (R17), as *events* tell them."""
    count = 0
    for event in reversed(events):
        kind = event.kind
        if kind is EventKind.DRAW:
            break
        if kind is EventKind.TAKE:
            count += 1
    return min(count, TAKES_HIGH)


def encode(observation: Observation) -> NDArray[np.int8]:
    """The vector of *observation*: a new ``int8`` array of :data:`SIZE` entries.

    It is a function of the observation alone, so it holds nothing that the seat may not know.
    """
    vector = np.zeros(SIZE, dtype=np.int8)
    rel = _ROTATIONS[observation.seat]
    for card in observation.hand:
        vector[_HAND + card] += 1
    drawn = [0, 0, 0]
    for seat, card in observation.public_draws:
        vector[_PUBLIC + rel[seat] * PILE_LENGTH + drawn[seat]] = card + 1
        drawn[seat] += 1
    for seat in range(SEATS):
        r = rel[seat]
        for card in observation.known[seat]:
            vector[_KNOWN + r * KINDS + card] += 1
        for position, card in enumerate(observation.discards[seat]):
            vector[_PILE + r * PILE_LENGTH + position] = card + 1
            vector[_DISCARDS + r * KINDS + card] += 1
        wait = observation.declared_waits[seat]
        if wait is not None:
            vector[_DECLARED + r * KINDS + wait] = 1
        vector[_SIZES_AT + r] = observation.hand_sizes[seat]
    if observation.latest_discard is not None:
        vector[_LATEST + observation.latest_discard] = 1
    vector[_STOCK] = observation.stock_count
    vector[_TURN + rel[observation.turn]] = 1
    vector[_PHASE + _PHASES[observation.phase]] = 1
    vector[_FIRST + rel[observation.first]] = 1
    vector[_TAKES] = _takes_in_a_row(observation.events)
    # R11: only the seat that has just discarded into a ready hand may pass.
    vector[_DECLARING] = any(action.kind is ActionKind.PASS for action in observation.legal_actions)
    return vector


def mask(legal_actions: Iterable[Action]) -> NDArray[np.int8]:
    """The action mask of *legal_actions*: a new ``int8`` array of :data:`~kowah.env.ids.N_ACTIONS`
    entries, 1 at the id of each legal action."""
    result = np.zeros(N_ACTIONS, dtype=np.int8)
    for action in legal_actions:
        result[IDS[action]] = 1
    return result


# The seat-structured planes, with the length of one seat's row.
_ROWS: Final = {"known": KINDS, "discards": KINDS, "declared": KINDS, "pile": PILE_LENGTH,
                "public_draws": PILE_LENGTH, "turn": 1, "first": 1, "hand_sizes": 1}


def _gathers() -> tuple[NDArray[np.intp], ...]:
    """For each observing seat, where each entry of its vector is in an :class:`Encoder`'s
    buffer: the buffer holds the planes by absolute seat, each seat's hand after them, and
    then each seat's declare flag."""
    result = []
    for me in range(SEATS):
        index = np.arange(SIZE, dtype=np.intp)
        hand = PLANES["hand"]
        index[hand] = SIZE + me * KINDS + np.arange(KINDS)
        index[_DECLARING] = _FLAGS + me
        for name, row in _ROWS.items():
            start = PLANES[name].start
            for r in range(SEATS):
                seat = (me + r) % SEATS
                index[start + r * row:start + (r + 1) * row] = start + seat * row + np.arange(row)
        result.append(index)
    return tuple(result)


_GATHERS: Final = _gathers()


class Encoder:
    """The three seats' vectors of one deal, kept up to date from the deal's events.

    Build it for a deal (at any point), then call :meth:`update` with the events of each
    action applied to that deal: :meth:`vector` stays equal to :func:`encode` of each seat's
    observation, at a few writes per event instead of a new vector per step. The encoder
    keeps one buffer for the three seats, by absolute seat, and each seat's hand; a seat's
    vector is gathered from it in one numpy operation.

    >>> from kowah import Deal
    >>> deal = Deal.shuffled(seed=5)
    >>> encoder = Encoder(deal)
    >>> seat = deal.actor
    >>> encoder.update(deal, deal.apply(deal.legal_actions(seat)[0]))
    >>> all((encoder.vector(s) == encode(deal.observation(s))).all() for s in range(3))
    True
    """

    __slots__ = ("_buffer", "_drawn", "_latest", "_piles", "_takes", "_view")

    def __init__(self, deal: Deal) -> None:
        observations = [deal.observation(seat) for seat in range(SEATS)]
        # The planes as seat 0 sees them are the planes by absolute seat.
        first = observations[0]
        hands = [encode(observation)[PLANES["hand"]] for observation in observations]
        # Python's bytearray takes single writes several times faster than a numpy array;
        # the numpy view shares its memory.
        flags = bytes(int(encode(observation)[_DECLARING]) for observation in observations)
        self._buffer = bytearray(encode(first).tobytes() + b"".join(hand.tobytes() for hand in hands) + flags)
        self._view = np.frombuffer(self._buffer, dtype=np.int8)
        self._piles = [len(pile) for pile in first.discards]
        self._drawn = [sum(1 for seat, _ in first.public_draws if seat == s) for s in range(SEATS)]
        self._takes = _takes_in_a_row(first.events)
        self._latest = first.latest_discard

    def vector(self, seat: int) -> NDArray[np.int8]:
        """A new array holding *seat*'s vector now (an int 0–2, unchecked)."""
        return self._view[_GATHERS[seat]]

    def update(self, deal: Deal, events: Iterable[Event]) -> None:
        """Bring the vectors up to date with *events*, which the last action applied to *deal*
        caused (:meth:`Deal.apply <kowah.Deal.apply>`'s result)."""
        buffer = self._buffer
        for event in events:
            kind, seat, card = event.kind, event.seat, event.card
            if kind is _DISCARD:
                assert seat is not None and card is not None
                position = self._piles[seat]
                self._piles[seat] = position + 1
                buffer[_SIZES_AT + seat] -= 1
                buffer[SIZE + seat * KINDS + card] -= 1
                known = _KNOWN + seat * KINDS + card
                if buffer[known]:
                    buffer[known] -= 1
                buffer[_PILE + seat * PILE_LENGTH + position] = card + 1
                buffer[_DISCARDS + seat * KINDS + card] += 1
            elif kind is _DRAW:
                assert seat is not None and card is not None
                buffer[_SIZES_AT + seat] += 1
                buffer[SIZE + seat * KINDS + card] += 1
                if event.public:  # R13
                    position = self._drawn[seat]
                    self._drawn[seat] = position + 1
                    buffer[_KNOWN + seat * KINDS + card] += 1
                    buffer[_PUBLIC + seat * PILE_LENGTH + position] = card + 1
                self._takes = 0
            elif kind is _TAKE:
                assert seat is not None and card is not None
                before = _BEFORE[seat]  # the latest discard is the previous seat's (R10)
                position = self._piles[before] - 1
                self._piles[before] = position
                buffer[_PILE + before * PILE_LENGTH + position] = 0
                buffer[_DISCARDS + before * KINDS + card] -= 1
                buffer[_SIZES_AT + seat] += 1
                buffer[_KNOWN + seat * KINDS + card] += 1
                buffer[SIZE + seat * KINDS + card] += 1
                self._takes = min(self._takes + 1, TAKES_HIGH)
            elif kind is _DECLARE:
                assert seat is not None and card is not None
                buffer[_DECLARED + seat * KINDS + card] = 1
                known = _KNOWN + seat * KINDS + card
                if buffer[known] < 2:  # the exposed pair (R11)
                    buffer[known] = 2
        # What every seat sees alike: the stock, the turn, the phase, the latest discard.
        turn, phase, latest = deal.turn, _PHASES[deal.phase], deal.latest_discard
        buffer[_STOCK] = deal.stock_count
        buffer[_TURN] = turn == 0
        buffer[_TURN + 1] = turn == 1
        buffer[_TURN + 2] = turn == 2
        buffer[_PHASE] = phase == 0
        buffer[_PHASE + 1] = phase == 1
        buffer[_PHASE + 2] = phase == 2
        previous = self._latest
        if previous is not latest:
            if previous is not None:
                buffer[_LATEST + previous] = 0
            if latest is not None:
                buffer[_LATEST + latest] = 1
            self._latest = latest
        buffer[_TAKES] = self._takes
        window = deal.declaring_seat
        buffer[_FLAGS] = window == 0
        buffer[_FLAGS + 1] = window == 1
        buffer[_FLAGS + 2] = window == 2
