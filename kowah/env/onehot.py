"""The one-hot encoding: the observation as a generic neural network learns from it.

The compact vector (:mod:`kowah.env.encoding`) stores counts as small integers and cards in
a pile as card codes 1–33, which a network would read as magnitudes. ``encoding="one-hot"``
(:func:`kowah.env.env`, :func:`kowah.env.single`) gives instead a ``float32`` vector of
:data:`ONE_HOT_SIZE` entries between 0 and 1, made by :func:`one_hot` from the compact one:
each card in a pile is a one-hot row of 33, the hand's counts are thresholds, other counts
are scaled to 0–1. Seats are counted from the observing seat, as in the compact vector.

============== =========== =====================================================================
plane          entries     what (each entry 0–1)
============== =========== =====================================================================
hand           4 × 33      row *j*: 1 for each card the hand holds at least *j* + 1 copies of
known          3 × 33      the compact ``known`` plane ÷ 4 (copies known in each seat's hand)
discards       3 × 33      the compact ``discards`` plane ÷ 4 (copies in each seat's discards)
declared       3 × 33      each seat's public wait once it has declared (R11)
latest         33          the latest discard while it may be taken (R10)
recent         3 × 8 × 33  each seat's last 8 discards still in its pile, newest first, each a
                           one-hot row of 33 (all 0 past the pile's start)
stock          1           cards left in the stock ÷ 108
turn           3           the seat whose turn it is (to draw or take, or to discard)
phase          3           it must draw or take; it must discard; the deal is over
first          3           the seat that opened the deal (R9)
hand_sizes     3           how many cards each seat holds ÷ 9
takes          1           turns in a row without a stock draw, each a take (R17), ÷ 30
declare        1           1 when this seat must declare or pass now (R11)
============== =========== =====================================================================

What it leaves out of the compact vector: the order of a pile before its last 8 cards and
the order of the public draws (their cards are still counted in ``discards`` and ``known``).

>>> from kowah import Deal
>>> from kowah.env.encoding import encode
>>> deal = Deal.shuffled(seed=3)
>>> vector = one_hot(encode(deal.observation(1)))
>>> vector.shape, vector.dtype, ONE_HOT_SIZE
((1269,), dtype('float32'), 1269)
>>> round(float(vector[ONE_HOT_PLANES["stock"]][0]), 4), int(vector[ONE_HOT_PLANES["hand"]].sum())
(0.8889, 8)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from kowah.actions import SEATS
from kowah.env.encoding import COPIES, KINDS, PILE_LENGTH, PLANES
from kowah.hands import HAND_SIZE

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["ONE_HOT_PLANES", "ONE_HOT_SIZE", "RECENT", "one_hot"]

#: How many of each seat's latest discards the ``recent`` plane holds.
RECENT: Final = 8
#: The most takes in a row before a deal is drawn (R17): the ``takes`` plane's scale.
_TAKES_SCALE: Final = 30

_SIZES: Final = (
    ("hand", COPIES * KINDS),
    ("known", SEATS * KINDS),
    ("discards", SEATS * KINDS),
    ("declared", SEATS * KINDS),
    ("latest", KINDS),
    ("recent", SEATS * RECENT * KINDS),
    ("stock", 1),
    ("turn", SEATS),
    ("phase", 3),
    ("first", SEATS),
    ("hand_sizes", SEATS),
    ("takes", 1),
    ("declare", 1),
)


def _layout() -> dict[str, slice]:
    planes: dict[str, slice] = {}
    start = 0
    for name, size in _SIZES:
        planes[name] = slice(start, start + size)
        start += size
    return planes


#: Each plane's entries in the one-hot vector, by name (see the table above).
ONE_HOT_PLANES: Final[dict[str, slice]] = _layout()
#: The length of the one-hot vector.
ONE_HOT_SIZE: Final = ONE_HOT_PLANES["declare"].stop

# Planes copied as they are, and planes scaled: (name, divisor).
_SAME: Final = ("declared", "latest", "turn", "phase", "first", "declare")
_SCALED: Final = (("known", COPIES), ("discards", COPIES), ("stock", PILE_LENGTH),
                  ("hand_sizes", HAND_SIZE + 1))
_THRESHOLDS: Final = np.arange(COPIES).reshape(COPIES, 1)
_RECENT_ORDER: Final = np.arange(RECENT)
_RECENT_ROWS: Final = np.arange(SEATS * RECENT)


def one_hot(vector: NDArray[np.int8]) -> NDArray[np.float32]:
    """The one-hot vector of a compact observation *vector* (:func:`kowah.env.encoding.encode`):
    a new ``float32`` array of :data:`ONE_HOT_SIZE` entries, each 0–1."""
    result = np.zeros(ONE_HOT_SIZE, dtype=np.float32)
    hand = vector[PLANES["hand"]]
    result[ONE_HOT_PLANES["hand"]] = (hand > _THRESHOLDS).ravel()
    for name in _SAME:
        result[ONE_HOT_PLANES[name]] = vector[PLANES[name]]
    for name, scale in _SCALED:
        result[ONE_HOT_PLANES[name]] = vector[PLANES[name]] / np.float32(scale)
    result[ONE_HOT_PLANES["takes"]] = min(int(vector[PLANES["takes"]][0]), _TAKES_SCALE) / _TAKES_SCALE
    # A pile is contiguous from its start (a taken card is the last one): its length is its
    # count of non-zero entries, and its last cards are the entries just before that.
    piles = vector[PLANES["pile"]].reshape(SEATS, PILE_LENGTH)
    lengths = np.count_nonzero(piles, axis=1)
    positions = lengths.reshape(SEATS, 1) - 1 - _RECENT_ORDER  # newest first
    present = positions >= 0
    cards = np.where(present, piles[np.arange(SEATS).reshape(SEATS, 1), np.maximum(positions, 0)] - 1, 0)
    recent = np.zeros((SEATS * RECENT, KINDS), dtype=np.float32)
    recent[_RECENT_ROWS, cards.ravel()] = present.ravel()
    result[ONE_HOT_PLANES["recent"]] = recent.ravel()
    return result
