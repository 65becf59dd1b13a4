"""kowah: the rules of Kowah (Cheki), the Chinese money-card game of Java and the Malay world."""

from kowah.cards import KOWAH_DECK, MONEY_PACK, Card, Honour, Pack, Suit, format_cards, parse_cards
from kowah.errors import (
    CardParseError,
    HandError,
    IllegalActionError,
    KowahError,
    LocaleError,
    RecordError,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "KOWAH_DECK",
    "MONEY_PACK",
    "Card",
    "CardParseError",
    "HandError",
    "Honour",
    "IllegalActionError",
    "KowahError",
    "LocaleError",
    "Pack",
    "RecordError",
    "Suit",
    "format_cards",
    "parse_cards",
]
