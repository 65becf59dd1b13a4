"""kowah: the rules of Kowah (Cheki), the Chinese money-card game of Java and the Malay world.

The rules modules are imported here; the text layer (:mod:`kowah.i18n`, which needs Babel),
the AI players (:mod:`kowah.players`) and the command line (:mod:`kowah.cli`) are not, so that
``import kowah`` stays light: import them by name (``import kowah.players``).

>>> import kowah
>>> hand = kowah.parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")
>>> kowah.is_ready(hand), sorted(kowah.waits(hand))
(True, [Card.C5, Card.S5])
"""

from kowah.cards import KOWAH_DECK, MONEY_PACK, Card, Honour, Pack, Suit, format_cards, parse_cards
from kowah.deal import (
    SEATS,
    Action,
    ActionKind,
    ActionTypeError,
    Deal,
    DeckError,
    Event,
    Observation,
    Outcome,
    Phase,
)
from kowah.errors import (
    CardParseError,
    HandError,
    IllegalActionError,
    KowahError,
    LocaleError,
    RecordError,
)
from kowah.hands import (
    HAND_SIZE,
    DiscardOption,
    Split,
    discard_options,
    distance,
    improvements,
    is_ready,
    splits,
    waits,
)
from kowah.record import FORMAT, Record, replay_outcome

__version__ = "0.1.0.dev0"

__all__ = [
    "FORMAT",
    "HAND_SIZE",
    "KOWAH_DECK",
    "MONEY_PACK",
    "SEATS",
    "Action",
    "ActionKind",
    "ActionTypeError",
    "Card",
    "CardParseError",
    "Deal",
    "DeckError",
    "DiscardOption",
    "Event",
    "HandError",
    "Honour",
    "IllegalActionError",
    "KowahError",
    "LocaleError",
    "Observation",
    "Outcome",
    "Pack",
    "Phase",
    "Record",
    "RecordError",
    "Split",
    "Suit",
    "discard_options",
    "distance",
    "format_cards",
    "improvements",
    "is_ready",
    "parse_cards",
    "replay_outcome",
    "splits",
    "waits",
]
