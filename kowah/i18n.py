"""The text layer: locales, message catalogues, card names, errors and outcomes.

The rules modules return codes and values; this module turns them into words in one of
:data:`LANGUAGES`. A :class:`Translator` is passed explicitly (no global ``_`` is ever
installed); :func:`translator` gives a cached one per language. Babel is imported only when
a function here needs it, so ``import kowah`` stays light.

>>> cs = translator("cs_CZ.UTF-8")
>>> cs.language, cs.card_name(Card.C5), cs.card_name(Card.OT)
('cs', 'pětka mincí', 'Starý tisíc')
>>> translator("es").format_list(["a", "b", "c"])
'a, b y c'

The rules themselves are rendered by :mod:`kowah.rendering`.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
import re
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

from kowah._value import Frozen
from kowah.cards import Card, format_cards
from kowah.errors import (
    N_,
    IllegalActionError,
    KowahError,
    KowahTypeError,
    LocaleError,
    RulesFormatError,
    format_message,
)

if TYPE_CHECKING:
    from kowah.actions import Action, Refusal

__all__ = [
    "LANGUAGES",
    "EventLike",
    "LocaleWarning",
    "OutcomeLike",
    "RulesFormatError",
    "Translator",
    "describe_event",
    "language_from_environment",
    "negotiate",
    "translator",
]

#: The languages the library has text for; English is the source language.
LANGUAGES = ("en", "it", "cs", "ms", "es", "id")

#: The gettext domain of the catalogues.
DOMAIN = "kowah"
_LOCALE_DIR = Path(__file__).resolve().parent / "_locale"


#: The list styles of :meth:`Translator.format_list` (Babel's).
# CLDR's English list patterns: the separator before the last item, for 3+ items and for 2.
_ENGLISH_LISTS = {"standard": (", and ", " and "), "or": (", or ", " or ")}
ListStyle = Literal["standard", "standard-short", "or", "or-short", "unit", "unit-short",
                    "unit-narrow"]


class LocaleWarning(UserWarning):
    """A locale tag was unknown or malformed, and English is used instead."""


class OutcomeLike(Protocol):
    """What :meth:`Translator.outcome` needs of a deal's outcome (``kowah.events.Outcome``)."""

    @property
    def result(self) -> str: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def by(self) -> str | None: ...
    @property
    def multiplier(self) -> int | None: ...
    @property
    def card(self) -> Card | None: ...


# Full card names (context "card"). Listed literally so that extraction finds them.
_FULL_NAMES: dict[Card, str] = {
    Card.C1: N_("card", "One of Coins"),
    Card.S1: N_("card", "One of Strings"),
    Card.M1: N_("card", "One of Myriads"),
    Card.C2: N_("card", "Two of Coins"),
    Card.S2: N_("card", "Two of Strings"),
    Card.M2: N_("card", "Two of Myriads"),
    Card.C3: N_("card", "Three of Coins"),
    Card.S3: N_("card", "Three of Strings"),
    Card.M3: N_("card", "Three of Myriads"),
    Card.C4: N_("card", "Four of Coins"),
    Card.S4: N_("card", "Four of Strings"),
    Card.M4: N_("card", "Four of Myriads"),
    Card.C5: N_("card", "Five of Coins"),
    Card.S5: N_("card", "Five of Strings"),
    Card.M5: N_("card", "Five of Myriads"),
    Card.C6: N_("card", "Six of Coins"),
    Card.S6: N_("card", "Six of Strings"),
    Card.M6: N_("card", "Six of Myriads"),
    Card.C7: N_("card", "Seven of Coins"),
    Card.S7: N_("card", "Seven of Strings"),
    Card.M7: N_("card", "Seven of Myriads"),
    Card.C8: N_("card", "Eight of Coins"),
    Card.S8: N_("card", "Eight of Strings"),
    Card.M8: N_("card", "Eight of Myriads"),
    Card.C9: N_("card", "Nine of Coins"),
    Card.S9: N_("card", "Nine of Strings"),
    Card.M9: N_("card", "Nine of Myriads"),
    Card.OT: N_("card", "Old Thousand"),
    Card.RF: N_("card", "Red Flower"),
    Card.WF: N_("card", "White Flower"),
    Card.WS: N_("card", "White Snake"),
    Card.GS: N_("card", "Green Snake"),
    Card.MK: N_("card", "Monk"),
}

# Short names for tight spaces; the honours' names are short already.
_SHORT_NAMES: dict[Card, str] = {
    Card.C1: N_("card", "1 Coin"),
    Card.S1: N_("card", "1 String"),
    Card.M1: N_("card", "1 Myriad"),
    Card.C2: N_("card", "2 Coins"),
    Card.S2: N_("card", "2 Strings"),
    Card.M2: N_("card", "2 Myriads"),
    Card.C3: N_("card", "3 Coins"),
    Card.S3: N_("card", "3 Strings"),
    Card.M3: N_("card", "3 Myriads"),
    Card.C4: N_("card", "4 Coins"),
    Card.S4: N_("card", "4 Strings"),
    Card.M4: N_("card", "4 Myriads"),
    Card.C5: N_("card", "5 Coins"),
    Card.S5: N_("card", "5 Strings"),
    Card.M5: N_("card", "5 Myriads"),
    Card.C6: N_("card", "6 Coins"),
    Card.S6: N_("card", "6 Strings"),
    Card.M6: N_("card", "6 Myriads"),
    Card.C7: N_("card", "7 Coins"),
    Card.S7: N_("card", "7 Strings"),
    Card.M7: N_("card", "7 Myriads"),
    Card.C8: N_("card", "8 Coins"),
    Card.S8: N_("card", "8 Strings"),
    Card.M8: N_("card", "8 Myriads"),
    Card.C9: N_("card", "9 Coins"),
    Card.S9: N_("card", "9 Strings"),
    Card.M9: N_("card", "9 Myriads"),
    Card.OT: _FULL_NAMES[Card.OT],
    Card.RF: _FULL_NAMES[Card.RF],
    Card.WF: _FULL_NAMES[Card.WF],
    Card.WS: _FULL_NAMES[Card.WS],
    Card.GS: _FULL_NAMES[Card.GS],
    Card.MK: _FULL_NAMES[Card.MK],
}

# Error parameters that read as words: pack names (kowah.cards) and actions (kowah.deal:
# "draw", "discard 5c", ...; R10, R11).
_PACKS: dict[str, str] = {
    # TRANSLATORS: pack names fill {pack} in errors ("... is not in the {pack}").
    "Kowah deck": N_("card", "Kowah deck"),
    "money pack": N_("card", "money pack"),
}
_ACTIONS: dict[str, str] = {
    # TRANSLATORS: actions fill {action} in "seat {seat} cannot {action}: {reason}".
    "draw": N_("action", "draw"),
    "take": N_("action", "take the latest discard"),
    "pass": N_("action", "pass"),
    "discard": N_("action", "discard {card}"),
    "declare": N_("action", "declare checki waiting for {card}"),
    "declare-only-wait": N_("action", "declare checki"),
}

_OUTCOME_WIN = {
    "self-draw": N_("rules", "Seat {seat} wins by self-draw with {card}, ×{multiplier}"),
    "discard": N_("rules", "Seat {seat} wins by claiming the discard {card}, ×{multiplier}"),
    "draw-claim": N_("rules",
                     "Seat {seat} wins by claiming the stock draw {card}, ×{multiplier}"),
}
_OUTCOME_DRAWN = N_("rules", "The deal is drawn: the stock ran out.")


class EventLike(Protocol):
    """What :func:`describe_event` needs of an event (``kowah.events.Event``)."""

    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def card(self) -> Card | None: ...


class _Words(Protocol):
    def gettext(self, context: str, message: str) -> str: ...
    def card_name(self, card: Card, short: bool = False) -> str: ...


# What happened, said to the seat that did it, and to the others (context "cli").
_EVENT_YOU = {
    "draw": N_("cli", "You draw {card} ({name})."),
    "take": N_("cli", "You take {card} ({name})."),
    "discard": N_("cli", "You discard {card} ({name})."),
    "declare": N_("cli", "You declare checki, waiting for {card} ({name})."),
    "win": N_("cli", "You win with {card} ({name})."),
}
_EVENT_SEAT = {
    "draw": N_("cli", "Seat {seat} draws {card} ({name})."),
    "take": N_("cli", "Seat {seat} takes {card} ({name})."),
    "discard": N_("cli", "Seat {seat} discards {card} ({name})."),
    "declare": N_("cli", "Seat {seat} declares checki, waiting for {card} ({name})!"),
    "win": N_("cli", "Seat {seat} wins with {card} ({name})."),
}
_HIDDEN_DRAW = N_("cli", "Seat {seat} draws a card.")


def describe_event(t: _Words, event: EventLike, viewer: int | None = None,
                   show: Callable[[Card], str] = str) -> str:
    """One sentence for *event*, told to seat *viewer* ("You draw…") or to an onlooker.

    *t* is a :class:`Translator` (or anything with its ``gettext`` and ``card_name``);
    *show* writes a card's code (the terminal game colours it). :meth:`Translator.event` is
    the usual way to call this.
    """
    kind, seat, card = event.kind, event.seat, event.card
    if kind == "drawn":
        return t.gettext("rules", _OUTCOME_DRAWN)
    if card is None:
        return t.gettext("cli", _HIDDEN_DRAW).format(seat=seat) if kind == "draw" else ""
    messages = _EVENT_YOU if seat == viewer else _EVENT_SEAT
    if kind not in messages:
        return ""
    return t.gettext("cli", messages[kind]).format(seat=seat, card=show(card), name=t.card_name(card))


# --- locales -------------------------------------------------------------------------------

_TAG = re.compile(r"^[A-Za-z]{1,8}([_-][A-Za-z0-9]{1,8})*$")


def _warn_or_raise(template: str, tag: str, strict: bool) -> str:
    error = LocaleError(template, tag=tag, languages=", ".join(LANGUAGES))
    if strict:
        raise error
    warnings.warn(str(error) + "; using English", LocaleWarning, stacklevel=3)
    return "en"


def negotiate(tag: str | None, *, strict: bool = False) -> str:
    """The supported language for a locale *tag* (POSIX or BCP 47 style).

    Encodings and modifiers are ignored and case does not matter; ``C`` and ``POSIX`` mean
    English, and ``None`` or an empty tag means no preference (English). An unknown or
    malformed tag gives English and a :class:`LocaleWarning`, or with *strict* a
    :class:`~kowah.errors.LocaleError` naming the tag.

    >>> [negotiate(tag) for tag in ("cs_CZ", "cs-CZ", "CS_cz.UTF-8@euro", "es_MX", "C", None)]
    ['cs', 'cs', 'cs', 'es', 'en', 'en']
    >>> negotiate("xx", strict=True)
    Traceback (most recent call last):
    ...
    kowah.errors.LocaleError: no catalogue for locale 'xx' (the languages are en, it, cs, ms, es, id)
    """
    if tag is not None and not isinstance(tag, str):
        raise KowahTypeError(N_("error", "a locale tag must be text, such as 'cs_CZ', not {value!r}"),
                             value=tag)
    if tag is None or not tag.strip():
        return "en"
    base = tag.strip().split("@", 1)[0].split(".", 1)[0]
    if base.upper() in ("C", "POSIX"):
        return "en"
    if not _TAG.match(base):
        return _warn_or_raise(N_("error", "'{tag}' is not a locale tag"), tag, strict)
    if base[:2].lower() == "en" and base[2:3] in ("", "_", "-"):
        return "en"  # any English: no catalogue to look for, and no need to load Babel
    from babel import Locale, UnknownLocaleError, negotiate_locale

    try:
        locale = Locale.parse(base.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        locale = None
    language = None
    if locale is not None:
        language = negotiate_locale([str(locale), locale.language], LANGUAGES)
    if language is None:
        return _warn_or_raise(
            N_("error", "no catalogue for locale '{tag}' (the languages are {languages})"),
            tag,
            strict,
        )
    return str(language)


def language_from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The locale tag the environment asks for, as GNU gettext reads it.

    ``LANGUAGE`` (a colon-separated list: its first supported entry) comes first, then
    ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``; empty variables are skipped.

    >>> language_from_environment({"LANGUAGE": "de:es_ES", "LANG": "cs_CZ.UTF-8"})
    'es_ES'
    >>> language_from_environment({"LC_ALL": "", "LC_MESSAGES": "ms_MY", "LANG": "it_IT"})
    'ms_MY'
    >>> language_from_environment({}) is None
    True
    """
    if environ is None:
        environ = os.environ
    languages = environ.get("LANGUAGE", "")
    if languages:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", LocaleWarning)
            for entry in languages.split(":"):
                if entry and (negotiate(entry) != "en" or entry.lower().startswith("en")):
                    return entry
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return value
    return None


# --- translators ---------------------------------------------------------------------------


def _format_param(value: Any) -> Any:
    return str(value) if isinstance(value, Card) else value


class Translator(Frozen):
    """Text in one language: messages, card names, lists, numbers, errors and outcomes.

    Get one with :func:`translator`; it wraps a gettext catalogue and never installs it
    globally.

    >>> t = translator("it")
    >>> t.gettext("card", "Old Thousand"), t.card_name(Card.M9, short=True)
    ('Vecchio Mille', '9 miriadi')
    >>> t.card_count(1), t.card_count(96)
    ('1 carta', '96 carte')
    """

    # A frozen value (kowah._value: no attrs on the way of `kowah check`), equal by language.
    __slots__ = ("_catalogue", "language")
    _fields = ("language", "_catalogue")
    _compared = ("language",)
    language: str
    _catalogue: _gettext.NullTranslations

    def __init__(self, language: str, catalogue: _gettext.NullTranslations) -> None:
        self._set(language=language, _catalogue=catalogue)

    def __repr__(self) -> str:
        return f"Translator(language={self.language!r})"

    def gettext(self, context: str, message: str) -> str:
        """*message* of *context* translated (``pgettext``)."""
        return self._catalogue.pgettext(context, message)

    def ngettext(self, context: str, singular: str, plural: str, n: int) -> str:
        """The plural form for *n* of a message of *context* (``npgettext``).

        >>> cs = translator("cs")
        >>> [cs.ngettext("cli", "{count} card", "{count} cards", n) for n in (1, 3, 5)]
        ['{count}\xa0karta', '{count}\xa0karty', '{count}\xa0karet']
        """
        return self._catalogue.npgettext(context, singular, plural, n)

    def card_count(self, n: int) -> str:
        """*n* cards, with the plural form the language needs for *n*.

        >>> [translator("cs").card_count(n) for n in (1, 3, 96)]
        ['1\xa0karta', '3\xa0karty', '96\xa0karet']
        """
        if not isinstance(n, int) or isinstance(n, bool):
            raise KowahTypeError(N_("error", "a number of cards must be an int, not {value!r}"), value=n)
        template = self.ngettext("cli", "{count} card", "{count} cards", n)
        return template.format(count=self.format_number(n))

    def card_name(self, card: Card, short: bool = False) -> str:
        """The name of *card*: ``"Five of Coins"``, or with *short* ``"5 Coins"``.

        >>> translator("ms").card_name(Card.C5), translator("en").card_name(Card.RF, short=True)
        ('lima syiling', 'Red Flower')
        """
        names = _SHORT_NAMES if short else _FULL_NAMES
        return self.gettext("card", names[Card(card)])

    def format_list(self, items: Iterable[str], style: ListStyle = "standard") -> str:
        """*items* joined as a list of the language (Babel's ``format_list``).

        >>> translator("en").format_list(["a", "b", "c"]), translator("en").format_list(["a"])
        ('a, b, and c', 'a')
        >>> translator("it").format_list(["x", "y"], style="or")
        'x o y'
        """
        items = list(items)
        if self.language == "en" and style in _ENGLISH_LISTS and len(items) > 1:
            # CLDR's English patterns, without loading Babel (kowah check prints a list).
            return ", ".join(items[:-1]) + _ENGLISH_LISTS[style][len(items) == 2] + items[-1]
        from babel.lists import format_list

        return str(format_list(items, style=style, locale=self.language))

    def format_number(self, n: float) -> str:
        """*n* written as the language writes numbers (Babel's ``format_decimal``).

        >>> translator("en").format_number(12345), translator("es").format_number(1.5)
        ('12,345', '1,5')
        """
        from decimal import InvalidOperation

        from babel.numbers import format_decimal, get_group_symbol

        try:
            return str(format_decimal(n, locale=self.language))
        except (InvalidOperation, ValueError, TypeError):
            if not isinstance(n, int) or isinstance(n, bool):
                raise KowahTypeError(N_("error", "cannot write {value!r} as a number"), value=n) from None
        # An int too long for Babel's decimal context: group its digits as the language does.
        try:
            digits = str(abs(n))
        except ValueError:  # more digits than int -> str converts
            raise KowahError(N_("error", "cannot write {value!r} as a number"), value=n) from None
        groups = [digits[max(0, end - 3):end] for end in range(len(digits), 0, -3)][::-1]
        return ("-" if n < 0 else "") + get_group_symbol(self.language).join(groups)

    def _params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        out = {key: _format_param(value) for key, value in params.items()}
        if isinstance(out.get("pack"), str) and out["pack"] in _PACKS:
            out["pack"] = self.gettext("card", _PACKS[out["pack"]])
        from kowah.actions import Action  # imported when needed: kowah check needs no actions

        if isinstance(out.get("action"), Action):
            out["action"] = self.action(out["action"])
        return out

    def action(self, action: Action) -> str:
        """An action as an infinitive phrase (R10, R11).

        >>> from kowah import Action
        >>> translator("it").action(Action.discard(0, Card.C5))
        'scartare 5c'
        """
        kind = action.kind.value
        if kind == "declare" and action.card is None:
            kind = "declare-only-wait"
        return self.gettext("action", _ACTIONS[kind]).format(card=str(action.card))

    def refusal(self, refusal: Refusal) -> str:
        """Why an action is refused (:meth:`Deal.why_illegal <kowah.deal.Deal.why_illegal>`),
        in this language: the reason's sentence, about "a seat".

        >>> from kowah import Action, Deal
        >>> refusal = Deal.shuffled(seed=3).why_illegal(Action.draw(0))
        >>> translator("en").refusal(refusal)
        "it is seat 1's turn"
        """
        template = self.gettext("error", refusal.reason.template)
        return format_message(template, self._params(refusal.params))

    def error(self, exc: KowahError) -> str:
        """The message of a library error, in this language.

        >>> from kowah import parse_cards
        >>> try:
        ...     parse_cards("5c ws")
        ... except KowahError as error:
        ...     print(translator("es").error(error))
        'ws' (elemento 2) no está en la baraja Kowah
        """
        cause = getattr(exc, "cause", None)
        if isinstance(cause, KowahError) and "reason" in exc.params:
            # A record error wraps the deal's error: translate the reason from it.
            params = {**self._params(exc.params), "reason": self.error(cause)}
            return format_message(self.gettext(exc.context, exc.template), params)
        if isinstance(exc, IllegalActionError):
            params = {**self._params(exc.params), "reason": self.refusal(exc.refusal)}
            return format_message(self.gettext(exc.context, exc.template), params)
        return format_message(self.gettext(exc.context, exc.template), self._params(exc.params))

    def event(self, event: EventLike, viewer: int | None = None) -> str:
        """One sentence for an event of a deal (:attr:`Observation.events
        <kowah.deal.Observation.events>`), told to seat *viewer* or, with ``None``, to an
        onlooker. Another seat's hidden stock draw is "Seat 2 draws a card."

        >>> from kowah import Event
        >>> translator("es").event(Event("discard", 1, Card.C5))
        'El asiento 1 descarta 5c (cinco de monedas).'
        >>> translator("en").event(Event("declare", 0, Card.S2), viewer=0)
        'You declare checki, waiting for 2s (Two of Strings).'
        >>> translator("cs").event(Event("draw", 2, None, public=False))
        'Hráč na místě\xa02 si líže kartu.'
        """
        return describe_event(self, event, viewer)

    def outcome(self, outcome: OutcomeLike) -> str:
        """A one-line account of how a deal ended (R14–R16).

        >>> from types import SimpleNamespace as Outcome
        >>> won = Outcome(result="win", winner=2, by="self-draw", multiplier=3, card=Card.C5)
        >>> translator("en").outcome(won)
        'Seat 2 wins by self-draw with 5c, ×3'
        >>> drawn = Outcome(result="drawn", winner=None, by=None, multiplier=None, card=None)
        >>> translator("cs").outcome(drawn)
        'Rozdání končí nerozhodně: talon došel.'
        """
        if outcome.result == "drawn":
            return self.gettext("rules", _OUTCOME_DRAWN)
        if outcome.result == "win" and outcome.by in _OUTCOME_WIN:
            return self.gettext("rules", _OUTCOME_WIN[outcome.by]).format(
                seat=outcome.winner,
                card=format_cards([outcome.card]) if outcome.card is not None else "",
                multiplier=self.format_number(outcome.multiplier or 1),
            )
        raise KowahError(
            N_("error", "cannot describe an outcome with result '{result}' and by '{by}'"),
            result=outcome.result,
            by=outcome.by,
        )


@functools.cache
def _load(language: str) -> Translator:
    if language == "en":
        return Translator(language, _gettext.NullTranslations())
    from babel.support import Translations

    if not (_LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file():
        raise LocaleError(
            N_("error", "the catalogue for '{tag}' is missing: reinstall kowah"), tag=language
        )
    catalogue = Translations.load(str(_LOCALE_DIR), [language], DOMAIN)
    return Translator(language, catalogue)


def translator(tag: str | None = None, *, strict: bool = False) -> Translator:
    """The (cached) translator for a locale *tag*; ``None`` reads the environment.

    >>> translator("cs_CZ") is translator("cs")
    True
    >>> translator("en").gettext("rules", "Claims")
    'Claims'
    """
    if tag is None:
        tag = language_from_environment()
    return _load(negotiate(tag, strict=strict))


def _all_messages() -> Sequence[tuple[str, str]]:
    """Every (context, message) this module and the rulebook show, for tests."""
    from kowah.rendering import rulebook_messages

    found = rulebook_messages()
    found += [("card", name) for name in (*_FULL_NAMES.values(), *_SHORT_NAMES.values())]
    found += [("card", name) for name in _PACKS.values()]
    found += [("action", name) for name in _ACTIONS.values()]
    found += [("rules", message) for message in (*_OUTCOME_WIN.values(), _OUTCOME_DRAWN)]
    return found
