"""The rules a deal is played by, as one frozen value: today, the pack in use (R2, V1).

>>> KOWAH_RULES.pack is KOWAH_DECK, KOWAH_RULES.pack_name, len(KOWAH_RULES.pack)
(True, 'kowah', 120)
>>> MONEY_RULES.pack_name, MONEY_RULES.stock_size
('money', 108)
>>> Rules.from_pack_name("money") == MONEY_RULES
True
>>> Rules(pack=Pack("tiny pack", [1] * 24 + [0] * 9))
Traceback (most recent call last):
...
kowah.errors.DeckError: the tiny pack has 24 cards: too few for three hands of 8 and a stock

Adding a variant
----------------
A variant is a field of :class:`Rules` with a default that keeps R1–R16 as they are (RULINGS.md,
"Variants"), never a fork of the engine. To add one, say a game where a declared seat may
still take discards:

1. add the field with its default, a validator and a docstring::

       #: Whether a declared seat may take the latest discard (R12 says no).
       locked_take: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))

2. read it (``self.rules.locked_take``) where the ruling is applied, in the one rules
   implementation, :class:`kowah.playout.Playout`: its legality check (``refusal``,
   ``legal_actions``) and its unchecked steps; :meth:`Deal.apply <kowah.deal.Deal.apply>`, the
   legal actions and the fast playouts then all follow it;
3. write it in records only when it differs from its default (so that every existing record
   still means what it meant), as ``"pack"`` is written only for the money pack;
4. test the default (the existing suite) and the variant, citing the ruling it changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs

from kowah.cards import KINDS, KOWAH_DECK, MONEY_PACK, Card, Pack
from kowah.errors import N_, DeckError, KowahTypeError, shorten
from kowah.hands import HAND_SIZE

__all__ = ["KOWAH_RULES", "MONEY_RULES", "PACK_NAMES", "SEATS", "Rules", "deck_problem"]

#: Seats at the table (R9).
SEATS: Final = 3

#: The record name of each pack a record may name (``"pack"`` in ``kowah-record/1``):
#: ``"kowah"`` is :data:`~kowah.cards.KOWAH_DECK`, ``"money"`` :data:`~kowah.cards.MONEY_PACK`.
#:
#: :meta hide-value:
PACK_NAMES: Final = {"kowah": KOWAH_DECK, "money": MONEY_PACK}


def _check_pack(instance: Rules, attribute: attrs.Attribute[Pack], pack: object) -> None:
    if not isinstance(pack, Pack):
        raise KowahTypeError(N_("error", "a pack must be a Pack, not {value} of type {type}"),
                             value=shorten(pack), type=type(pack).__name__)
    if len(pack) <= SEATS * HAND_SIZE:  # R9: three hands, and at least one card to draw
        raise DeckError(
            N_("error", "the {pack} has {count} cards: too few for three hands of {size} and a stock"),
            pack=pack.name, count=len(pack), size=HAND_SIZE,
        )


@attrs.frozen
class Rules:
    """The rules of a deal: the rulings R3–R16 played with :attr:`pack`.

    ``Rules()`` is the game of the rules pages, with the 120-card Kowah deck (R2);
    :data:`MONEY_RULES` plays with the full 132-card money pack (V1). Deals, observations,
    players and records carry their rules. A pack too small for three hands and a stock is
    refused (:class:`~kowah.errors.DeckError`).
    """

    #: The cards dealt (R1, R2): :data:`~kowah.cards.KOWAH_DECK` unless a variant says otherwise.
    pack: Pack = attrs.field(default=KOWAH_DECK, validator=_check_pack)

    @property
    def pack_name(self) -> str | None:
        """The record name of :attr:`pack`: ``"kowah"`` or ``"money"``, ``None`` for another pack."""
        for name, pack in PACK_NAMES.items():
            if pack == self.pack:
                return name
        return None

    @property
    def stock_size(self) -> int:
        """Cards in the stock once the hands are dealt (R9: 96 for the Kowah deck)."""
        return len(self.pack) - SEATS * HAND_SIZE

    @classmethod
    def from_pack_name(cls, name: str) -> Rules:
        """The rules with the pack a record names (``"kowah"`` or ``"money"``).

        >>> Rules.from_pack_name("kowah") is KOWAH_RULES
        True
        >>> Rules.from_pack_name("bridge")
        Traceback (most recent call last):
        ...
        kowah.errors.DeckError: unknown pack 'bridge' (kowah or money)
        """
        if name == "kowah":
            return KOWAH_RULES
        if name == "money":
            return MONEY_RULES
        if not isinstance(name, str):
            raise KowahTypeError(N_("error", "a pack name must be a string, not {value} of type {type}"),
                                 value=shorten(name), type=type(name).__name__)
        raise DeckError(N_("error", "unknown pack {name!r} (kowah or money)"), name=name)

    def __repr__(self) -> str:
        name = self.pack_name
        if name == "kowah":
            return "Rules()"
        if name == "money":
            return "Rules(pack=MONEY_PACK)"
        return f"Rules(pack={self.pack!r})"


def deck_problem(deck: Sequence[Card], pack: Pack) -> tuple[str, int, Card, int] | None:
    """What keeps *deck* (Cards) from being an order of *pack*, the first problem in deck order.

    ``("absent", position, card, 0)``: a card the pack lacks, at its 1-based position;
    ``("extra", position, card, count)``: *count* copies of a card, more than the pack holds,
    the first extra copy at *position*; ``("short", 0, card, count)``: only *count* copies of a
    card (the deck is short); ``None``: no problem.

    >>> deck_problem(KOWAH_DECK.cards[1:], KOWAH_DECK)
    ('short', 0, Card.C1, 3)
    """
    allowed = pack.counts
    seen = [0] * KINDS
    for position, card in enumerate(deck, start=1):
        seen[card] += 1
        if seen[card] > allowed[card]:
            if not allowed[card]:
                return "absent", position, card, 0
            return "extra", position, card, deck.count(card)
    for card in pack.kinds:
        if seen[card] < allowed[card]:
            return "short", 0, card, seen[card]
    return None


#: The default rules: the Kowah deck (R2) and rulings R3–R16.
KOWAH_RULES: Final = Rules()
#: The money-pack game (V1): all 132 cards, the same rulings.
MONEY_RULES: Final = Rules(pack=MONEY_PACK)
