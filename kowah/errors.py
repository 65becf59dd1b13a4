"""The exception types of the rules layer, and the base of every error the library raises.

Every error the library raises on bad input is a :class:`KowahError`, which is a
:class:`ValueError`; the errors about a value of the wrong type are :class:`KowahTypeError`,
which is a :class:`TypeError` too. The other layers' errors live in their modules
(:class:`kowah.i18n.LocaleError`, :class:`kowah.players.UnknownPlayerError`, ...), reachable
from the ``kowah`` facade; the browser table's (:class:`kowah.web.store.StoreError` and its
kinds) from their module only. Each message is an English template with named fields, kept
on the exception (:attr:`KowahError.template`, :attr:`KowahError.params`) so that the text
layer (:mod:`kowah.i18n`) can show it in another language without parsing the message.

>>> from kowah import parse_cards
>>> try:
...     parse_cards("5c zz")
... except CardParseError as error:
...     print(error, "|", error.token, error.position)
unknown card code 'zz' (card 2) | zz 2

Messages quote the bad value shortened and printable, however long or strange it is
(:func:`shorten`):

>>> print(KowahError("unknown card code {token!r}", token="x" * 10_000))
unknown card code 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxx'
"""

from __future__ import annotations

import math
import string
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for annotations only: the actions module imports this one
    from kowah.actions import Action, Reason, Refusal

__all__ = [
    "N_",
    "ActionError",
    "ActionTypeError",
    "CardParseError",
    "DeckError",
    "HandError",
    "HandTypeError",
    "IllegalActionError",
    "KowahError",
    "KowahTypeError",
    "RecordError",
    "format_message",
    "printable",
    "shorten",
]


def N_(context: str, message: str) -> str:
    """Mark *message* for translation in *context* without translating it (for extraction)."""
    return message


#: The longest quoted value (``{value!r}``) a message shows, and the longest plain text field.
QUOTE_LIMIT = 60
TEXT_LIMIT = 240


def _printable(text: str) -> str:
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else ascii(char)[1:-1] for char in text)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    tail = limit // 3
    return f"{text[:limit - tail - 3]}...{text[-tail:]}"


def printable(text: str, limit: int | None = None) -> str:
    """*text* made safe to print as it is: for echoing what a person typed or a file name.

    Characters that do not print (an escape sequence's ESC, control characters) are shown
    escaped, a byte that was not UTF-8 (a surrogate escape, as in a file name) as ``\\xNN``;
    with *limit*, the middle of a longer text gives way to ``...``.

    >>> printable("\\x1b[2Jred"), printable("caf\\udce9.json"), printable("x" * 30, limit=12)
    ('\\\\x1b[2Jred', 'caf\\\\xe9.json', 'xxxxx...xxxx')
    """
    if not text.isprintable():
        text = "".join(f"\\x{ord(char) - 0xDC00:02x}" if 0xDC80 <= ord(char) <= 0xDCFF else char
                       for char in text)
        text = _printable(text)
    return text if limit is None else _cut(text, limit)


def shorten(value: object, limit: int = QUOTE_LIMIT) -> str:
    """The ``repr`` of *value* for an error message: printable, and at most *limit* characters.

    Like :func:`reprlib.repr`, the middle of a long value gives way to ``...``; characters that
    do not print (control characters, unassigned code points) are shown escaped, and an integer
    too long to write in decimal is described instead.

    >>> shorten("5c")
    "'5c'"
    >>> shorten("a" * 100, limit=20)
    "'aaaaaaaaaa...aaaaa'"
    >>> shorten(10 ** 5000)
    '<an integer of about 5001 digits>'
    >>> print(shorten(type("Odd", (), {"__repr__": lambda self: "odd\\nobject"})()))
    odd\\nobject
    """
    if type(value) is int:
        text = _int_text(value)
    else:
        try:
            text = repr(value)
        except Exception:  # a broken __repr__ must not hide the error being reported
            text = f"<{type(value).__name__} object>"
    return _cut(_printable(text), limit)


def _int_text(value: int) -> str:
    try:
        return repr(value)
    except ValueError:  # more digits than int -> str converts (sys.get_int_max_str_digits)
        size = math.floor(math.log10(abs(value))) + 1  # close enough for a message
        return f"<an integer of about {size} digits>"


class _Formatter(string.Formatter):
    """``str.format`` that shortens what a message quotes (see :func:`shorten`)."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "r":
            return shorten(value)
        return super().convert_field(value, conversion)

    def format_field(self, value: Any, format_spec: str) -> str:
        if type(value) is int and not format_spec:
            return _int_text(value)
        return _cut(super().format_field(value, format_spec), TEXT_LIMIT)


_FORMATTER = _Formatter()


def format_message(template: str, params: Mapping[str, object]) -> str:
    """*template* filled from *params*, with quoted values shortened (:func:`shorten`).

    The text layer fills translated templates with it, so they are shortened alike.

    >>> format_message("{card} is not in the hand", {"card": "5c"})
    '5c is not in the hand'
    """
    return _FORMATTER.vformat(template, (), params)


def _rebuilt(cls: type[KowahError], template: str, params: dict[str, object]) -> KowahError:
    """An error of class *cls* with *template* and *params* (its other attributes follow)."""
    error = cls.__new__(cls)
    KowahError.__init__(error, template, **params)
    return error


class KowahError(ValueError):
    """Base class of every error the library raises on bad input.

    Every error pickles and unpickles to an equal one (the same class, template, fields and
    attributes), so it crosses a process boundary, e.g. out of a worker of
    :func:`kowah.simulation.simulate`:

    >>> import pickle
    >>> from kowah import CardParseError, parse_cards
    >>> try:
    ...     parse_cards("5c zz")
    ... except CardParseError as error:
    ...     copy = pickle.loads(pickle.dumps(error))
    >>> type(copy).__name__, str(copy), copy.token, copy.position
    ('CardParseError', "unknown card code 'zz' (card 2)", 'zz', 2)
    """

    #: The message catalogue context of :attr:`template`.
    context = "error"

    def __init__(self, template: str, **params: object) -> None:
        #: The English message template (marked for translation, context ``"error"``).
        self.template = template
        #: The template's fields: the bad value, its position, the seat, ...
        self.params: dict[str, object] = params
        super().__init__(format_message(template, params))

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from the template and fields, whatever the subclass's constructor takes;
        # the instance's own attributes (token, refusal, cause, ...) are restored after.
        return _rebuilt, (type(self), self.template, dict(self.params)), dict(self.__dict__)


class KowahTypeError(KowahError, TypeError):
    """A value of the wrong type was given: it is a :class:`TypeError` as well as a
    :class:`KowahError`.

    >>> from kowah import Deal
    >>> Deal(None, 0)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahTypeError: a deck must be a sequence of Card values, not None of type NoneType
    """


class CardParseError(KowahError):
    """A card code, or a list of card codes, could not be read.

    :attr:`token` is the offending text and :attr:`position` its 1-based place in the list
    (``None`` when the problem is not one token, e.g. too many copies).
    """

    def __init__(
        self, template: str, *, token: str, position: int | None = None, **params: object
    ) -> None:
        self.token = token
        self.position = position
        super().__init__(template, token=token, position=position, **params)


class HandError(KowahError):
    """A hand is not a legal hand: wrong size, too many copies, or a card the deck lacks."""

    def __init__(self, template: str, *, card: str | None = None, **params: object) -> None:
        self.card = card
        super().__init__(template, card=card, **params)


class HandTypeError(HandError, KowahTypeError):
    """A hand, or the seen cards, given as something that is no collection of cards, or
    holding an item of another type than a card: a :class:`TypeError` as well as a
    :class:`HandError`.

    >>> from kowah import is_ready
    >>> is_ready(None)
    Traceback (most recent call last):
    ...
    kowah.errors.HandTypeError: a hand must be a sequence of Card values, not None of type NoneType
    """


class DeckError(KowahError):
    """A deck order or first seat given to :class:`~kowah.deal.Deal` does not fit the rules'
    pack, or a pack is too small to deal (see :class:`~kowah.engine.Rules`).

    >>> from kowah import KOWAH_DECK, Card, Deal
    >>> deck = list(KOWAH_DECK.cards)
    >>> Deal([*deck[:-1], Card.WS], 0)
    Traceback (most recent call last):
    ...
    kowah.errors.DeckError: card 120 of the deck, ws, is not in the Kowah deck
    >>> Deal([*deck, Card.C5], 0)
    Traceback (most recent call last):
    ...
    kowah.errors.DeckError: the deck holds 5 copies of 5c, but the Kowah deck has 4 (first extra copy: ...)
    >>> Deal(deck[1:], 0)
    Traceback (most recent call last):
    ...
    kowah.errors.DeckError: the deck has 119 cards, but the Kowah deck has 120: a copy of 1c is missing
    """


class ActionError(KowahError):
    """An :class:`~kowah.actions.Action` cannot be built or read: no such seat, kind or card,
    a card where the kind takes none, text that is no action.

    >>> from kowah import Action
    >>> Action.parse("discard zz", seat=0)
    Traceback (most recent call last):
    ...
    kowah.errors.ActionError: unknown card code 'zz' in the action 'discard zz'
    """


class ActionTypeError(ActionError, KowahTypeError):
    """Something of the wrong type was given where an action, or a part of one, is expected.

    It is a :class:`TypeError` as well as an :class:`ActionError`.

    >>> from kowah import Deal
    >>> Deal.shuffled(seed=1).apply("draw")
    Traceback (most recent call last):
    ...
    kowah.errors.ActionTypeError: expected an Action, not 'draw' of type str
    """


class IllegalActionError(KowahError):
    """An action is not legal in the deal's current state; the state is left unchanged.

    :attr:`refusal` says why, as a value (:class:`~kowah.actions.Refusal`): its
    :attr:`~kowah.actions.Refusal.reason` (a :class:`~kowah.actions.Reason` member) and the
    fields of its message. :attr:`seat`, :attr:`action` and :attr:`reason` are shortcuts.

    >>> from kowah import Action, Deal, Reason
    >>> deal = Deal.shuffled(seed=1)
    >>> try:
    ...     deal.apply(Action.take(deal.actor))
    ... except IllegalActionError as error:
    ...     print(error.reason is Reason.OPENING_DRAW, error.action == Action.take(deal.actor))
    True True

    Given *player* (a player's name) and *at* (its seat), the message says which player chose
    the action, as :func:`~kowah.simulation.play_deal` does.
    """

    def __init__(self, refusal: Refusal, player: str | None = None, at: int | None = None) -> None:
        #: Why the action is refused.
        self.refusal = refusal
        if player is None:
            super().__init__(
                N_("error", "seat {seat} cannot {action}: {reason}"),
                seat=refusal.action.seat,
                action=refusal.action,
                reason=str(refusal),
            )
        else:
            super().__init__(
                N_("error", "the player {player} at seat {at} chose an illegal action: seat {seat} cannot "
                            "{action}: {reason}"),
                player=shorten(player),
                at=at,
                seat=refusal.action.seat,
                action=refusal.action,
                reason=str(refusal),
            )

    @property
    def action(self) -> Action:
        """The action that was refused."""
        return self.refusal.action

    @property
    def seat(self) -> int:
        """The seat of the refused action."""
        return self.refusal.action.seat

    @property
    def reason(self) -> Reason:
        """Why it was refused."""
        return self.refusal.reason


class RecordError(KowahError):
    """A game record could not be read or replayed.

    :attr:`action` is the 0-based index of the first illegal action, or ``None`` when the
    record itself is unreadable (not JSON, another format, a wrong deck, a bad ``first``).
    """

    def __init__(self, template: str, *, action: int | None = None, **params: object) -> None:
        self.action = action
        #: The :class:`IllegalActionError` behind a replay failure, if any.
        self.cause: KowahError | None = None
        super().__init__(template, action=action, **params)

    @classmethod
    def saying(cls, error: KowahError) -> RecordError:
        """A RecordError with the message of *error* (e.g. a deck's :class:`DeckError`), for a
        record that is not an action's fault."""
        found = cls.__new__(cls)
        found.action, found.cause = None, None
        params = {name: value for name, value in error.params.items() if name != "action"}
        KowahError.__init__(found, error.template, action=None, **params)
        return found
