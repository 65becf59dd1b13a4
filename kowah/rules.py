"""The rules a deal is played by, as one frozen value: today, the pack in use (R2, V1).

>>> KOWAH_RULES.pack is KOWAH_DECK, KOWAH_RULES.pack_name, len(KOWAH_RULES.pack)
(True, 'kowah', 120)
>>> MONEY_RULES.pack_name, MONEY_RULES.stock_size
('money', 108)
>>> Rules.from_pack_name("money") == MONEY_RULES
True
>>> Rules(pack=Pack("tiny", [1] * 24 + [0] * 9))
Traceback (most recent call last):
...
kowah.errors.DeckError: the tiny has 24 cards: too few for three hands of 8 and a stock

Adding a variant
----------------
A variant is a field of :class:`Rules` with a default that keeps R1–R16 as they are (RULINGS.md,
"Variants"), never a fork of the engine. To add one, say a game where a declared seat may
still take discards:

1. add the field with its default, a validator and a docstring::

       #: Whether a declared seat may take the latest discard (R12 says no).
       locked_take: bool = attrs.field(default=False, validator=attrs.validators.instance_of(bool))

2. read it where the ruling is applied, in the engine's legality check and its unchecked step
   (:mod:`kowah._engine`), so that :meth:`~kowah.deal.Deal.apply`, the legal actions and the
   fast playouts (:mod:`kowah.playout`) all follow it;
3. write it in records only when it differs from its default (so that every existing record
   still means what it meant), as ``"pack"`` is written only for the money pack;
4. test the default (the existing suite) and the variant, citing the ruling it changes.
"""

from __future__ import annotations

from typing import Final

import attrs

from kowah.cards import KOWAH_DECK, MONEY_PACK, Pack
from kowah.errors import N_, DeckError, KowahTypeError, shorten

__all__ = ["HAND_CARDS", "KOWAH_RULES", "MONEY_RULES", "PACK_NAMES", "SEATS", "Rules"]

#: Seats at the table (R9).
SEATS: Final = 3
#: Cards in a hand between turns (R9).
HAND_CARDS: Final = 8

#: The record name of each pack a record may name (``"pack"`` in ``kowah-record/1``).
PACK_NAMES: Final = {"kowah": KOWAH_DECK, "money": MONEY_PACK}


def _check_pack(instance: Rules, attribute: attrs.Attribute[Pack], pack: object) -> None:
    if not isinstance(pack, Pack):
        raise KowahTypeError(N_("error", "a pack must be a Pack, not {value} of type {type}"),
                             value=shorten(pack), type=type(pack).__name__)
    if len(pack) <= SEATS * HAND_CARDS:  # R9: three hands, and at least one card to draw
        raise DeckError(
            N_("error", "the {pack} has {count} cards: too few for three hands of {size} and a stock"),
            pack=pack.name, count=len(pack), size=HAND_CARDS,
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
        return len(self.pack) - SEATS * HAND_CARDS

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


#: The default rules: the Kowah deck (R2) and rulings R3–R16.
KOWAH_RULES: Final = Rules()
#: The money-pack game (V1): all 132 cards, the same rulings.
MONEY_RULES: Final = Rules(pack=MONEY_PACK)
