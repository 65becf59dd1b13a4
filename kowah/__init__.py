"""kowah: the rules of Kowah (Cheki), the Chinese money-card game of Java and the Malay world.

The names below come from the rules modules (and the error types from the module of their
layer), each imported when one of its names is first used (PEP 562), so that ``import kowah``
costs almost nothing and a command or a script pays only for what it uses. The other layers'
modules (:mod:`kowah.players`, :mod:`kowah.simulation`, :mod:`kowah.i18n`, ...) are reached by
name, ``kowah.players`` or ``import kowah.players``.

>>> import kowah
>>> hand = kowah.parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")
>>> kowah.is_ready(hand), sorted(kowah.waits(hand))
(True, [Card.C5, Card.S5])
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from kowah.actions import Action, ActionDict, ActionKind, Reason, Refusal
    from kowah.cards import KOWAH_DECK, MONEY_PACK, Card, Honour, Pack, Suit, format_cards, parse_cards
    from kowah.deal import Deal, Observation, ObservationDict
    from kowah.engine import KOWAH_RULES, MONEY_RULES, SEATS, Rules, State
    from kowah.errors import (
        ActionError,
        ActionTypeError,
        CardParseError,
        DeckError,
        HandError,
        HandTypeError,
        IllegalActionError,
        KowahError,
        KowahTypeError,
        RecordError,
    )
    from kowah.events import DrawnBy, Event, EventDict, EventKind, Outcome, OutcomeDict, Phase, Result, WinBy
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
    from kowah.i18n import LocaleError
    from kowah.players import UnknownPlayerError
    from kowah.plugins import PlayerError, PlayerLoadError
    from kowah.record import FORMAT, Record, RecordDict, replay_outcome
    from kowah.rendering import RulesFormatError

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
    "ActionDict",
    "ActionError",
    "ActionKind",
    "ActionTypeError",
    "Card",
    "CardParseError",
    "Deal",
    "DeckError",
    "DiscardOption",
    "DrawnBy",
    "Event",
    "EventDict",
    "EventKind",
    "HandError",
    "HandTypeError",
    "Honour",
    "IllegalActionError",
    "KowahError",
    "KowahTypeError",
    "LocaleError",
    "Observation",
    "ObservationDict",
    "Outcome",
    "OutcomeDict",
    "Pack",
    "Phase",
    "PlayerError",
    "PlayerLoadError",
    "Reason",
    "Record",
    "RecordDict",
    "RecordError",
    "Refusal",
    "Result",
    "Rules",
    "RulesFormatError",
    "Split",
    "State",
    "Suit",
    "UnknownPlayerError",
    "WinBy",
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

#: Where each public name lives.
_HOMES = {
    "Action": "kowah.actions",
    "ActionDict": "kowah.actions",
    "ActionKind": "kowah.actions",
    "Reason": "kowah.actions",
    "Refusal": "kowah.actions",
    "Card": "kowah.cards",
    "Honour": "kowah.cards",
    "KOWAH_DECK": "kowah.cards",
    "MONEY_PACK": "kowah.cards",
    "Pack": "kowah.cards",
    "Suit": "kowah.cards",
    "format_cards": "kowah.cards",
    "parse_cards": "kowah.cards",
    "Deal": "kowah.deal",
    "Observation": "kowah.deal",
    "ObservationDict": "kowah.deal",
    "ActionError": "kowah.errors",
    "ActionTypeError": "kowah.errors",
    "CardParseError": "kowah.errors",
    "DeckError": "kowah.errors",
    "HandError": "kowah.errors",
    "HandTypeError": "kowah.errors",
    "IllegalActionError": "kowah.errors",
    "KowahError": "kowah.errors",
    "KowahTypeError": "kowah.errors",
    "LocaleError": "kowah.i18n",
    "RecordError": "kowah.errors",
    "PlayerError": "kowah.plugins",
    "PlayerLoadError": "kowah.plugins",
    "RulesFormatError": "kowah.rendering",
    "UnknownPlayerError": "kowah.players",
    "DrawnBy": "kowah.events",
    "Event": "kowah.events",
    "EventDict": "kowah.events",
    "EventKind": "kowah.events",
    "Outcome": "kowah.events",
    "OutcomeDict": "kowah.events",
    "Phase": "kowah.events",
    "Result": "kowah.events",
    "WinBy": "kowah.events",
    "DiscardOption": "kowah.hands",
    "HAND_SIZE": "kowah.hands",
    "Split": "kowah.hands",
    "discard_options": "kowah.hands",
    "distance": "kowah.hands",
    "improvements": "kowah.hands",
    "is_ready": "kowah.hands",
    "splits": "kowah.hands",
    "waits": "kowah.hands",
    "FORMAT": "kowah.record",
    "Record": "kowah.record",
    "RecordDict": "kowah.record",
    "replay_outcome": "kowah.record",
    "KOWAH_RULES": "kowah.engine",
    "MONEY_RULES": "kowah.engine",
    "Rules": "kowah.engine",
    "SEATS": "kowah.engine",
    "State": "kowah.engine",
}
#: ``rules`` and ``table`` are the deprecated names of ``engine`` and ``terminal`` (importing
#: them warns).
_SUBMODULES = frozenset({"actions", "cards", "cli", "coach", "deal", "engine", "env", "errors", "events",
                         "hands", "i18n", "players", "plugins", "record", "rendering", "rulebook", "rules",
                         "simulation", "svg", "table", "terminal"})

if not TYPE_CHECKING:  # hidden from type checkers, so that a misspelt name is an error there

    def __getattr__(name: str) -> object:
        """Import the module of a public name (or a submodule) on first use."""
        home = _HOMES.get(name)
        if home is not None:
            module = __import__(home, fromlist=[name])
            value = getattr(module, name)
            globals()[name] = value  # later uses find it directly
            return value
        if name in _SUBMODULES:
            return __import__(f"kowah.{name}", fromlist=["__name__"])
        if name == "StoreFullError":  # deprecated: the facade exports no error of the web layer
            import warnings

            warnings.warn("kowah.StoreFullError is deprecated; import it from kowah.web.store",
                          DeprecationWarning, stacklevel=2)
            from kowah.web.store import StoreFullError

            return StoreFullError
        raise AttributeError(f"module 'kowah' has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
