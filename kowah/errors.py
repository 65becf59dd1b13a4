"""The library's exception types.

Every error the library raises on bad input is a :class:`KowahError`, which is a
:class:`ValueError`. Each message is an English template with named fields, kept on the
exception (:attr:`KowahError.template`, :attr:`KowahError.params`) so that the text layer
(:mod:`kowah.i18n`) can show it in another language without parsing the message.

>>> from kowah import parse_cards
>>> try:
...     parse_cards("5c zz")
... except CardParseError as error:
...     print(error, "|", error.token, error.position)
unknown card code 'zz' (token 2) | zz 2
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "N_",
    "CardParseError",
    "HandError",
    "IllegalActionError",
    "KowahError",
    "LocaleError",
    "RecordError",
]


def N_(context: str, message: str) -> str:
    """Mark *message* for translation in *context* without translating it (for extraction)."""
    return message


class KowahError(ValueError):
    """Base class of every error the library raises on bad input."""

    #: The message catalogue context of :attr:`template`.
    context = "error"

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


class CardParseError(KowahError):
    """A card code, or a list of card codes, could not be read.

    :attr:`token` is the offending text and :attr:`position` its 1-based place in the list
    (``None`` when the problem is not one token, e.g. too many copies).
    """

    def __init__(
        self, template: str, *, token: str, position: int | None = None, **params: Any
    ) -> None:
        self.token = token
        self.position = position
        super().__init__(template, token=token, position=position, **params)


class HandError(KowahError):
    """A hand is not a legal hand: wrong size, too many copies, or a card the deck lacks."""

    def __init__(self, template: str, *, card: str | None = None, **params: Any) -> None:
        self.card = card
        super().__init__(template, card=card, **params)


class IllegalActionError(KowahError):
    """An action is not legal in the deal's current state; the state is left unchanged.

    :attr:`seat` and :attr:`action` name what was tried and :attr:`reason` why it is illegal.
    """

    def __init__(self, template: str, *, seat: int, action: str, **params: Any) -> None:
        self.seat = seat
        self.action = action
        self.reason_template = template
        self.reason_params = params
        self.reason = template.format(seat=seat, action=action, **params)
        super().__init__(
            N_("error", "seat {seat} cannot {action}: {reason}"),
            seat=seat,
            action=action,
            reason=self.reason,
        )


class RecordError(KowahError):
    """A game record could not be read or replayed.

    :attr:`action` is the 0-based index of the first illegal action, or ``None`` when the
    record itself is unreadable (not JSON, another format, a wrong deck, a bad ``first``).
    """

    def __init__(self, template: str, *, action: int | None = None, **params: Any) -> None:
        self.action = action
        #: The :class:`IllegalActionError` behind a replay failure, if any.
        self.cause: KowahError | None = None
        super().__init__(template, action=action, **params)


class LocaleError(KowahError):
    """A locale tag is malformed, or names a language the library has no catalogue for."""
