"""The text layer: locales, message catalogues, card names, errors and the sentences of a deal.

The rules modules return codes and values; this module turns them into words in one of
:data:`LANGUAGES`. A :class:`Translator` is passed explicitly (no global ``_`` is ever
installed); :func:`translator` gives a cached one per language. Babel is imported only when
a function here needs it, so ``import kowah`` stays light; the first thread that needs it imports
it whole while any other waits (:mod:`kowah._babel`), so the text layer answers right from every
thread from the first call.

>>> cs = translator("cs_CZ.UTF-8")
>>> cs.language, cs.card_name(Card.C5), cs.card_name(Card.OT)
('cs', 'pětka mincí', 'Starý tisíc')
>>> translator("es").format_list(["a", "b", "c"])
'a, b y c'

Sentences name cards, never codes (:meth:`Translator.card`): each card has its name on its
own (``"name"``), as the object of a verb (``"object"``: "You discard *the Five of Coins*",
Czech accusative) and with "with" (``"with"``: "wins *with the Five of Coins*", Czech
*s pětkou mincí*, *se sedmičkou mincí*). Every sentence is written so that one of these
forms fits it in every language. A translator made with ``codes=True`` adds each card's code to the names in
sentences, "the Red Flower (rf)", for players who like the notation.

>>> from kowah import Event, Outcome
>>> translator("cs").event(Event("discard", 1, Card.C5))
'Hráč na místě\\xa01 odhazuje pětku mincí.'
>>> translator("en", codes=True).outcome(Outcome.win(0, "discard", Card.RF), viewer=0)
'You win with the Red Flower (rf) by claiming a discard, ×2.'

How a sentence names a card, a seat or a person
-----------------------------------------------
Every sentence a person reads or hears (terminal, command line, the browser page: status line,
buttons and their accessible names, the live region, the command box, the review, the friends
panel) is composed here or in :mod:`kowah.web.text` / :mod:`kowah.web.said`, never by a caller
that joins a name to translated text. The *catalogue* chooses the form of every name it uses,
with a format spec on the placeholder (:meth:`Translator.sentence`):

* a card (``{card}``): ``{card}`` or ``{card:name}`` on its own (after a colon, in a label),
  ``{card:object}`` as the object of a verb (with its article where the language has one:
  "Prendi *il sei di filze*"), ``{card:with}`` after "with"; a tuple of cards is a list of
  the language ("and"), each card in the form asked for;
* a list of alternatives, one of which is meant ("waiting for the Five of Coins *or* the
  Five of Strings"): the form followed by ``|or`` (``{cards:object|or}``, ``{cards:name|or}``,
  or ``{cards:or}`` for the names on their own) joins the cards with the language's "or",
  each in its form; a single card is just that card;
* a seat or person (``{name}``, a :class:`Named`): ``{name}`` is the *label* the table shows
  ("Posto 1 · IA (normale)", "Bo"), ``{name:subject}`` the subject that begins a sentence
  ("Il posto 1", "El asiento 1", "Hráč na místě 1", "Pemain di tempat duduk 1", "Bo");
* "you" as a sentence's subject is never a name: the code picks the second-person message
  ("You have declared checki…"), and a label never repeats it ("You (you)").

Each language's translation may put a different spec on the same placeholder (the catalogue
tests compare placeholders without these specs). Nothing in a sentence agrees in gender with
a person or a card whose gender it cannot know (see ``locales/GLOSSARY.md``).

>>> it = translator("it")
>>> it.sentence("doctest", "Take {card:object}", card=Card.S6)
'Take il sei di filze'
>>> it.sentence("doctest", "{name:subject} is playing", name=it.named(1))
'Il posto 1 is playing'
>>> it.sentence("doctest", "waiting for {cards:object|or}", cards=(Card.C5, Card.S6))
'waiting for il cinque di monete o il sei di filze'
>>> translator("es").sentence("doctest", "{cards:or}", cards=(Card.C7, Card.S8))
'siete de monedas u ocho de sartas'

The rules themselves are rendered by :mod:`kowah.rendering`.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
import re
import string
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol

import attrs

from kowah import _babel, _words
from kowah._value import Value
from kowah.cards import Card, format_cards
from kowah.cards import checked_card as _check_card
from kowah.errors import (
    N_,
    IllegalActionError,
    KowahError,
    KowahTypeError,
    format_message,
    printable,
    shorten,
)

if TYPE_CHECKING:
    from kowah.actions import Action, Refusal
    from kowah.events import Event, Outcome

__all__ = [
    "FORM_SPECS",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "CardForm",
    "ListStyle",
    "LocaleError",
    "LocaleWarning",
    "Named",
    "Translator",
    "Words",
    "language_from_environment",
    "messages",
    "negotiate",
    "translator",
]

#: The languages the library has text for; English is the source language.
LANGUAGES = ("en", "it", "cs", "ms", "es", "id")

#: Each language named in itself (its autonym), for language switches; never translated.
LANGUAGE_NAMES = {
    "en": "English",
    "it": "Italiano",
    "cs": "Čeština",
    "ms": "Bahasa Melayu",
    "es": "Español",
    "id": "Bahasa Indonesia",
}

#: The gettext domain of the catalogues.
DOMAIN = "kowah"
_LOCALE_DIR = os.path.join(os.path.dirname(os.path.realpath(__file__)), "_locale")

#: The list styles of :meth:`Translator.format_list` (Babel's).
ListStyle = Literal["standard", "standard-short", "or", "or-short", "unit", "unit-short",
                    "unit-narrow"]
# English lists as the source text writes them (British, no serial comma: "Coins, Strings and
# Myriads"; CLDR's "en" has one): the separator before the last item, for 3+ items and for 2.
_ENGLISH_LISTS = {"standard": (" and ", " and "), "or": (" or ", " or ")}

#: The form of a card's name a sentence needs (see the module description): on its own, as
#: the object of a verb, or with "with" ("with the Five of Coins").
CardForm = Literal["name", "object", "with"]
_FORMS: dict[str, dict[Card, str]] = {
    "name": _words.FULL, "object": _words.OBJECT, "with": _words.WITH}
_FORM_CONTEXTS = {"name": "card", "object": "card (object)", "with": "card (with)"}

#: The forms a sentence's placeholder may ask for (see the module description): a card's
#: form, the same followed by ``|or`` for a list of alternatives (``"or"`` alone: the names),
#: or a seat's or person's.
FORM_SPECS = frozenset({"name", "object", "with", "label", "subject", "or",
                        "name|or", "object|or", "with|or"})


class Named(NamedTuple):
    """A seat or person as sentences name it: its *label* and its *subject* form."""

    label: str
    subject: str


class _Forms(string.Formatter):
    """Fills a message, each card and seat in the form its placeholder asks for."""

    def __init__(self, t: Translator) -> None:
        self.t = t

    def format_field(self, value: object, format_spec: str) -> str:
        if isinstance(value, Card):
            return self.t.card(value, _card_form(_list_style(format_spec)[0]))
        if isinstance(value, tuple) and value and all(isinstance(item, Card) for item in value):
            spec, style = _list_style(format_spec)
            form = _card_form(spec)
            return self.t.format_list([self.t.card(item, form) for item in value], style=style)
        if isinstance(value, Named):
            return value.subject if format_spec == "subject" else value.label
        return str(super().format_field(value, format_spec))


def _list_style(spec: str) -> tuple[str, ListStyle]:
    """A placeholder's spec without its list style, and the style: ``"object|or"`` is the
    object form in a list of alternatives; ``"or"`` alone, the names."""
    if spec == "or":
        return "name", "or"
    form, bar, style = spec.partition("|")
    if bar and (style != "or" or form not in _FORMS):
        raise KowahError(N_("error", "unknown form of a card's name {value} (name, object or with)"),
                         value=shorten(spec))
    return form, "or" if bar else "standard"


def _card_form(spec: str) -> CardForm:
    if spec in ("", "name", "label", "subject"):
        return "name"
    if spec == "object":
        return "object"
    if spec == "with":
        return "with"
    raise KowahError(N_("error", "unknown form of a card's name {value} (name, object or with)"),
                     value=shorten(spec))


#: The longest name of a person a sentence shows (longer ones are shortened).
NAME_LIMIT = 40


class LocaleError(KowahError):
    """A locale tag is malformed, or names a language the library has no catalogue for."""


class LocaleWarning(UserWarning):
    """A locale tag was unknown or malformed, and English is used instead."""


class Words(Protocol):
    """What the text functions need of a translator; :class:`Translator` is the one the
    library makes, and anything with these methods will do (a test's recorder, say)."""

    @property
    def language(self) -> str: ...
    def gettext(self, context: str, message: str) -> str: ...
    def ngettext(self, context: str, singular: str, plural: str, n: int) -> str: ...
    def card_name(self, card: Card, short: bool = False) -> str: ...
    def card(self, card: Card, form: CardForm = "name") -> str: ...
    def format_list(self, items: Iterable[str], style: ListStyle = "standard") -> str: ...
    def format_number(self, n: float) -> str: ...


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
    :class:`LocaleError` naming the tag.

    >>> [negotiate(tag) for tag in ("cs_CZ", "cs-CZ", "CS_cz.UTF-8@euro", "es_MX", "C", None)]
    ['cs', 'cs', 'cs', 'es', 'en', 'en']
    >>> negotiate("xx", strict=True)
    Traceback (most recent call last):
    ...
    kowah.i18n.LocaleError: no catalogue for locale 'xx' (the languages are en, it, cs, ms, es, id)
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
    _babel.load()
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


@functools.cache
def _catalogue(language: str) -> _gettext.NullTranslations:
    if language == "en":
        return _gettext.NullTranslations()
    _babel.load()
    from babel.support import Translations

    if not os.path.isfile(os.path.join(_LOCALE_DIR, language, "LC_MESSAGES", f"{DOMAIN}.mo")):
        raise LocaleError(
            N_("error", "the catalogue for '{tag}' is missing: reinstall kowah"), tag=language
        )
    return Translations.load(_LOCALE_DIR, [language], DOMAIN)


def _check_seat(seat: object) -> int:
    from kowah.engine import SEATS

    if type(seat) is not int:
        raise KowahTypeError(N_("error", "a seat must be an int (0, 1 or 2), not {value} of type {type}"),
                             value=shorten(seat), type=type(seat).__name__)
    if not 0 <= seat < SEATS:
        raise KowahError(N_("error", "there is no seat {seat}"), seat=seat)
    return seat


@attrs.frozen(init=False)
class Translator(Value):
    """Text in one language: messages, card names, lists, numbers, errors, the events and the
    outcome of a deal.

    Get one with :func:`translator`; it reads the language's gettext catalogue and never
    installs it globally. A translator is a value like the library's others: equal, hashed
    and pickled by its two fields, :attr:`language` and :attr:`codes`, and :meth:`replace`
    gives one that differs in a field.

    >>> t = translator("it")
    >>> t.gettext("card", "Old Thousand"), t.card_name(Card.M9, short=True)
    ('Vecchio Mille', '9 miriadi')
    >>> t.card_count(1), t.card_count(96)
    ('1 carta', '96 carte')
    >>> import pickle
    >>> pickle.loads(pickle.dumps(t)) == t, t.replace(codes=True)
    (True, Translator(language='it', codes=True))
    """

    #: One of :data:`LANGUAGES`.
    language: str
    #: Whether sentences add each card's code to its name: "the Red Flower (rf)".
    codes: bool

    def __init__(self, language: str, codes: bool = False) -> None:
        if not isinstance(language, str):
            raise KowahTypeError(N_("error", "a language must be text, such as 'cs', not {value} of "
                                             "type {type}"), value=shorten(language),
                                 type=type(language).__name__)
        if language not in LANGUAGES:
            raise LocaleError(N_("error", "no catalogue for locale '{tag}' (the languages are "
                                          "{languages})"), tag=language, languages=", ".join(LANGUAGES))
        if type(codes) is not bool:
            raise KowahTypeError(N_("error", "codes must be True or False, not {value} of type {type}"),
                                 value=shorten(codes), type=type(codes).__name__)
        _catalogue(language)  # a missing catalogue is an error now, not at the first message
        self.__attrs_init__(language=language, codes=codes)

    def gettext(self, context: str, message: str) -> str:
        """*message* of *context* translated (``pgettext``)."""
        return _catalogue(self.language).pgettext(context, message)

    def ngettext(self, context: str, singular: str, plural: str, n: int) -> str:
        """The plural form for *n* of a message of *context* (``npgettext``).

        >>> cs = translator("cs")
        >>> [cs.ngettext("cli", "{count} card", "{count} cards", n) for n in (1, 3, 5)]
        ['{count}\xa0karta', '{count}\xa0karty', '{count}\xa0karet']
        """
        return _catalogue(self.language).npgettext(context, singular, plural, n)

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
        """The name of *card* on its own: ``"Five of Coins"``, or with *short* ``"5 Coins"``.

        >>> translator("ms").card_name(Card.C5), translator("en").card_name(Card.RF, short=True)
        ('lima syiling', 'Red Flower')
        >>> translator("en").card_name("5c")
        Traceback (most recent call last):
        ...
        kowah.errors.KowahTypeError: a card must be a Card (such as Card.C5), not '5c' of type str
        """
        names = _words.SHORT if short else _words.FULL
        return self.gettext("card", names[_check_card(card)])

    def card(self, card: Card, form: CardForm = "name") -> str:
        """*card* as a sentence names it: its name in *form* (``"name"``, ``"object"`` or
        ``"with"``, see the module description), followed by its code when :attr:`codes` is set.

        >>> cs = translator("cs")
        >>> cs.card(Card.C5), cs.card(Card.C5, "object"), cs.card(Card.C5, "with")
        ('pětka mincí', 'pětku mincí', 's\xa0pětkou mincí')
        >>> translator("it", codes=True).card(Card.RF, "object")
        'il Fiore Rosso (rf)'
        """
        names = _FORMS.get(form) if isinstance(form, str) else None
        if names is None:
            raise KowahError(N_("error", "unknown form of a card's name {value} (name, object or with)"),
                             value=shorten(form))
        name = self.gettext(_FORM_CONTEXTS[form], names[_check_card(card)])
        return f"{name} ({card.code})" if self.codes else name

    def format_list(self, items: Iterable[str], style: ListStyle = "standard") -> str:
        """*items* joined as a list of the language (Babel's ``format_list``).

        >>> translator("en").format_list(["a", "b", "c"]), translator("en").format_list(["a"])
        ('a, b and c', 'a')
        >>> translator("it").format_list(["x", "y"], style="or")
        'x o y'
        >>> translator("es").format_list(["siete", "ocho"], style="or")
        'siete u ocho'
        """
        items = list(items)
        if self.language == "en" and style in _ENGLISH_LISTS and len(items) > 1:
            # Without loading Babel (kowah check prints a list).
            return ", ".join(items[:-1]) + _ENGLISH_LISTS[style][len(items) == 2] + items[-1]
        if self.language == "es" and style in ("standard", "or") and len(items) > 1:
            # CLDR's Spanish patterns, with the conjunction Spanish writes before the last item's
            # sound: "siete u ocho", "cinco e Inés" (Babel always writes "o" and "y").
            return ", ".join(items[:-1]) + f" {_spanish_conjunction(style, items[-1])} " + items[-1]
        _babel.load()
        from babel.lists import format_list

        return str(format_list(items, style=style, locale=self.language))

    def format_number(self, n: float) -> str:
        """*n* written as the language writes numbers (Babel's ``format_decimal``).

        >>> translator("en").format_number(12345), translator("es").format_number(1.5)
        ('12,345', '1,5')
        """
        _babel.load()
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

    # -- seats and players ----------------------------------------------------------------------

    def seat_name(self, seat: int, viewer: int | None = None,
                  names: Sequence[str | None] | None = None) -> str:
        """How a label names *seat*: "You" for the *viewer*, a person's name from *names*
        (a friends' table), or "Seat 2".

        >>> es = translator("es")
        >>> es.seat_name(0, viewer=0), es.seat_name(1, names=["Ana", "Luis", None]), es.seat_name(2)
        ('Tú', 'Luis', 'Asiento 2')
        """
        seat = _check_seat(seat)
        if seat == viewer:
            return self.gettext("seat", _words.YOU)
        return self._named(seat, names) or self.gettext("seat", _words.SEAT).format(seat=seat)

    def _named(self, seat: int, names: Sequence[str | None] | None) -> str | None:
        if names is None:
            return None
        if isinstance(names, (str, bytes)) or not isinstance(names, Sequence):
            raise KowahTypeError(N_("error", "names must be a sequence of a name or None for each "
                                             "seat, not {value} of type {type}"),
                                 value=shorten(names), type=type(names).__name__)
        name = names[seat] if seat < len(names) else None
        if name is not None and not isinstance(name, str):
            raise KowahTypeError(N_("error", "a seat's name must be text or None, not {value} of "
                                             "type {type}"), value=shorten(name), type=type(name).__name__)
        name = " ".join(name.split()) if name else ""
        return printable(name, NAME_LIMIT) if name else None

    def _subject(self, seat: int, names: Sequence[str | None] | None) -> str:
        """*seat* as the subject that begins a sentence: a person's name or "Seat 2"."""
        return self._named(seat, names) or self.gettext("seat (subject)", _words.SUBJECT).format(seat=seat)

    def seat_subject(self, seat: int, names: Sequence[str | None] | None = None) -> str:
        """*seat* as the subject that begins a sentence: a person's name or "Seat 2".

        >>> translator("it").seat_subject(2), translator("it").seat_subject(2, ["A", "B", "Cy"])
        ('Il posto 2', 'Cy')
        """
        return self._subject(_check_seat(seat), names)

    def named(self, seat: int, names: Sequence[str | None] | None = None,
              label: str | None = None) -> Named:
        """*seat* in both forms a sentence may ask for: its *label* (default: :meth:`seat_name`
        without a viewer) and its subject.

        >>> translator("es").named(1)
        Named(label='Asiento 1', subject='El asiento 1')
        """
        label = self.seat_name(seat, names=names) if label is None else label
        return Named(label, self._subject(_check_seat(seat), names))

    def sentence(self, context: str, message: str, /, **values: object) -> str:
        """*message* (of *context*) in this language, its placeholders filled in the form the
        catalogue's text asks for (see "How a sentence names…" above)."""
        return _Forms(self).format(self.gettext(context, message), **values)

    def nsentence(self, context: str, singular: str, plural: str, n: int, /, **values: object) -> str:
        """:meth:`sentence` with the plural form for *n* (filled in as ``{count}``).

        >>> translator("es").nsentence("cli", "{count} card", "{count} cards", 3)
        '3 cartas'
        """
        return _Forms(self).format(self.ngettext(context, singular, plural, n), **{"count": n, **values})

    def level_name(self, level: str) -> str:
        """An AI level (one of :data:`kowah.players.PLAYERS`) as a player reads it.

        >>> translator("cs").level_name("hard")
        'silná'
        """
        message = _words.LEVELS.get(level) if isinstance(level, str) else None
        if message is None:
            from kowah.players import UnknownPlayerError  # only on this error: a player costs ~35 ms

            raise UnknownPlayerError.naming(level)
        return self.gettext("player", message)

    # -- errors ----------------------------------------------------------------------------------

    def _params(self, params: Mapping[str, object], notation: bool) -> dict[str, object]:
        """A message's fields as words: cards by their codes (*notation*) or by their names."""
        out: dict[str, object] = {}
        for key, value in params.items():
            if isinstance(value, Card):
                value = value.code if notation else self.card(value)
            elif isinstance(value, tuple) and value and all(isinstance(item, Card) for item in value):
                value = (format_cards(value) if notation
                         else self.format_list([self.card(item) for item in value], style="or"))
            out[key] = value
        if isinstance(out.get("pack"), str) and out["pack"] in _PACKS:
            out["pack"] = self.gettext("card", _PACKS[str(out["pack"])])
        from kowah.actions import Action  # imported when needed: kowah check needs no actions

        if isinstance(out.get("action"), Action):
            out["action"] = self.action(out["action"])  # type: ignore[arg-type]
        return out

    def action(self, action: Action) -> str:
        """An action as an infinitive phrase, its card as a code (R10, R11).

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
        in this language, said to a player: the reason's sentence, naming cards by their names.

        >>> from kowah import Action, Deal, Reason, Refusal
        >>> refusal = Deal.shuffled(seed=3).why_illegal(Action.draw(0))
        >>> translator("en").refusal(refusal)
        "it is seat 1's turn"
        >>> translator("es").refusal(Refusal(Reason.NOT_IN_HAND, Action.discard(0, Card.RF),
        ...                                  {"card": Card.RF}))
        'la carta Flor Roja no está en la mano'
        """
        template = self.gettext("error", refusal.reason.template)
        return format_message(template, self._params(refusal.params, notation=False))

    def error(self, exc: KowahError) -> str:
        """The message of a library error, in this language; cards read as their codes, the
        notation of the input that was refused.

        >>> from kowah import parse_cards
        >>> try:
        ...     parse_cards("5c ws")
        ... except KowahError as error:
        ...     print(translator("es").error(error))
        'ws' (carta 2) no está en la baraja Kowah
        """
        if not isinstance(exc, KowahError):
            raise KowahTypeError(N_("error", "error() describes a KowahError, not {value} of type {type}"),
                                 value=shorten(exc), type=type(exc).__name__)
        template = self.gettext(exc.context, exc.template)
        params = self._params(exc.params, notation=True)
        cause = getattr(exc, "cause", None)
        if isinstance(cause, KowahError) and "reason" in exc.params:
            params["reason"] = self.error(cause)  # a record error wraps the deal's error
        elif isinstance(exc, IllegalActionError):
            reason = self.gettext("error", exc.refusal.reason.template)
            params["reason"] = format_message(reason, self._params(exc.refusal.params, notation=True))
        return format_message(template, params)

    # -- a deal's events and outcome --------------------------------------------------------------

    def event(self, event: Event, viewer: int | None = None,
              names: Sequence[str | None] | None = None) -> str:
        """One sentence for an event of a deal (:attr:`Observation.events
        <kowah.deal.Observation.events>`), told to seat *viewer* ("You draw…") or, with
        ``None``, to an onlooker; *names* gives the seats' names (a friends' table). Another
        seat's hidden stock draw is "Seat 2 draws a card." Cards are named (:meth:`card`).

        >>> from kowah import Event
        >>> translator("es").event(Event("discard", 1, Card.C5))
        'El asiento 1 descarta el cinco de monedas.'
        >>> translator("en").event(Event("declare", 0, Card.S2), viewer=0)
        'You declare checki, waiting for the Two of Strings.'
        >>> translator("it").event(Event("win", 2, Card.OT), names=["Ada", "Bruno", "Carla"])
        'Carla ha vinto con il Vecchio Mille.'
        >>> translator("cs").event(Event("draw", 2, None, public=False))
        'Hráč na místě\xa02 si líže kartu.'
        """
        from kowah.events import Event

        if not isinstance(event, Event):
            raise KowahTypeError(N_("error", "event() describes an Event, not {value} of type {type}"),
                                 value=shorten(event), type=type(event).__name__)
        kind, seat, card = event.kind.value, event.seat, event.card
        if seat is None:  # a drawn deal (R16, R17)
            return self.gettext("event", _words.DRAWN_EVENT)
        you = seat == viewer
        if card is None:  # another seat's stock draw, hidden (R13)
            if you:
                return self.gettext("event", _words.HIDDEN_DRAW_YOU)
            return self.gettext("event", _words.HIDDEN_DRAW).format(player=self._subject(seat, names))
        template = self.gettext("event", (_words.EVENT_YOU if you else _words.EVENT_OTHER)[kind])
        player = "" if you else self._subject(seat, names)
        if kind == "win":
            return template.format(player=player, with_card=self.card(card, "with"))
        return template.format(player=player, card=self.card(card, "object"))

    def outcome(self, outcome: Outcome, viewer: int | None = None,
                names: Sequence[str | None] | None = None) -> str:
        """How a deal ended, in one sentence with its full stop: who won (said to seat
        *viewer* when it won; *names* as in :meth:`event`), with which card, how, and the
        multiplier only (R14, R15); or why the deal was drawn (R16, R17).

        >>> from kowah import Outcome
        >>> won = Outcome.win(2, "self-draw", Card.C5)
        >>> translator("en").outcome(won)
        'Seat 2 wins with the Five of Coins by self-draw, ×3.'
        >>> translator("cs").outcome(won, viewer=2)
        'Vyhráváte s\xa0pětkou mincí vlastním líznutím, ×3.'
        >>> translator("cs").outcome(Outcome.drawn("exhaustion"))
        'Rozdání končí nerozhodně: talon došel.'
        """
        from kowah.events import Outcome

        if not isinstance(outcome, Outcome):
            raise KowahTypeError(N_("error", "outcome() describes an Outcome, not {value} of type {type}"),
                                 value=shorten(outcome), type=type(outcome).__name__)
        by = None if outcome.by is None else str(outcome.by)
        if outcome.winner is None or outcome.card is None:
            return self.gettext("outcome" if by == "no-progress" else "rules",
                                _words.DRAWN["no-progress" if by == "no-progress" else "exhaustion"])
        you = outcome.winner == viewer
        template = self.gettext("outcome", (_words.WIN_YOU if you else _words.WIN_OTHER)[str(by)])
        return template.format(player="" if you else self._subject(outcome.winner, names),
                               with_card=self.card(outcome.card, "with"),
                               multiplier=self.format_number(outcome.multiplier or 1))


def _spanish_conjunction(style: ListStyle, word: str) -> str:
    """Spanish "or" before *word* ("u" before the sound o: *u ocho*, *u hora*) or "and" ("e"
    before the sound i, but not before a diphthong: *e hijo*, *y hielo*)."""
    word = word.lower()
    if style == "or":
        return "u" if word.startswith(("o", "ó", "ho", "hó")) else "o"
    sound_i = word.startswith(("i", "í", "hi", "hí")) and not word.startswith(
        ("ia", "ie", "io", "iu", "hia", "hie", "hio", "hiu"))
    return "e" if sound_i else "y"


@functools.cache
def _translator(language: str, codes: bool) -> Translator:
    return Translator(language, codes)


def translator(tag: str | None = None, *, strict: bool = False, codes: bool = False) -> Translator:
    """The (cached) translator for a locale *tag*; ``None`` reads the environment. With
    *codes*, sentences add each card's code to its name (:attr:`Translator.codes`).

    >>> translator("cs_CZ") is translator("cs")
    True
    >>> translator("en").gettext("rules", "Claims")
    'Claims'
    >>> translator("en", codes=True).codes
    True
    """
    if tag is None:
        tag = language_from_environment()
    if type(codes) is not bool:
        raise KowahTypeError(N_("error", "codes must be True or False, not {value} of type {type}"),
                             value=shorten(codes), type=type(codes).__name__)
    return _translator(negotiate(tag, strict=strict), codes)


def messages() -> list[tuple[str, str]]:
    """Every (context, message) this module shows, for the catalogue checks; plural
    messages by their singular. The rules add theirs (:func:`kowah.rendering.rulebook_messages`).

    >>> ("outcome", "You win {with_card} by self-draw, ×{multiplier}.") in messages()
    True
    """
    found = [(_FORM_CONTEXTS[form], name) for form, names in _FORMS.items() for name in names.values()]
    found += [("card", name) for name in (*_words.SHORT.values(), *_PACKS.values())]
    found += [("action", name) for name in _ACTIONS.values()]
    found += [("seat", _words.YOU), ("seat", _words.SEAT), ("seat (subject)", _words.SUBJECT)]
    found += [("event", message) for message in (
        *_words.EVENT_YOU.values(), *_words.EVENT_OTHER.values(), _words.HIDDEN_DRAW_YOU,
        _words.HIDDEN_DRAW, _words.DRAWN_EVENT)]
    found += [("outcome", message) for message in (*_words.WIN_YOU.values(), *_words.WIN_OTHER.values())]
    found += [("rules", _words.DRAWN["exhaustion"]), ("outcome", _words.DRAWN["no-progress"])]
    found += [("player", message) for message in _words.LEVELS.values()]
    found += [("cli", "{count} card")]
    return list(dict.fromkeys(found))
