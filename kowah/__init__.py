"""kowah: the rules of Kowah (Cheki), the Chinese money-card game of Java and the Malay world.

The rules modules are imported here; the text layer (:mod:`kowah.i18n`, which needs Babel),
the AI players (:mod:`kowah.players`) and the command line (:mod:`kowah.cli`) are not, so that
``import kowah`` stays light: import them by name (``import kowah.players``).

>>> import kowah
>>> hand = kowah.parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")
>>> kowah.is_ready(hand), sorted(kowah.waits(hand))
(True, [Card.C5, Card.S5])
"""

from kowah.actions import Action, ActionKind, Reason, Refusal
from kowah.cards import KOWAH_DECK, MONEY_PACK, Card, Honour, Pack, Suit, format_cards, parse_cards
from kowah.deal import Deal, Observation
from kowah.errors import (
    ActionError,
    ActionTypeError,
    CardParseError,
    DeckError,
    HandError,
    IllegalActionError,
    KowahError,
    KowahTypeError,
    LocaleError,
    RecordError,
    RulesFormatError,
    UnknownPlayerError,
)
from kowah.events import Event, EventKind, Outcome, OutcomeDict, Phase, Result, WinBy
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
from kowah.playout import Playout, random_playout
from kowah.record import FORMAT, Record, replay_outcome
from kowah.rules import KOWAH_RULES, MONEY_RULES, SEATS, Rules

__version__ = "0.1.0.dev0"

__all__ = [
    "FORMAT",
    "HAND_SIZE",
    "KOWAH_DECK",
    "KOWAH_RULES",
    "MONEY_PACK",
    "MONEY_RULES",
    "SEATS",
    "Action",
    "ActionError",
    "ActionKind",
    "ActionTypeError",
    "Card",
    "CardParseError",
    "Deal",
    "DeckError",
    "DiscardOption",
    "Event",
    "EventKind",
    "HandError",
    "Honour",
    "IllegalActionError",
    "KowahError",
    "KowahTypeError",
    "LocaleError",
    "Observation",
    "Outcome",
    "OutcomeDict",
    "Pack",
    "Phase",
    "Playout",
    "Reason",
    "Record",
    "RecordError",
    "Refusal",
    "Result",
    "Rules",
    "RulesFormatError",
    "Split",
    "Suit",
    "UnknownPlayerError",
    "WinBy",
    "discard_options",
    "distance",
    "format_cards",
    "improvements",
    "is_ready",
    "parse_cards",
    "random_playout",
    "replay_outcome",
    "splits",
    "waits",
]
