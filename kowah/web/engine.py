"""The few engine calls the browser table makes, in one place.

Everything the web layer asks of the engine goes through here: actions to and from their
record form, why an action is refused (the reason's code and its sentence in a language), a
new deal from a seed or an explicit deck, a declared seat's wait.

>>> from kowah import Action, Deal
>>> from kowah.i18n import translator
>>> refused = refusal(Deal.shuffled(seed=3), Action.draw(0), translator("en"))
>>> refused.code, refused.message
('not-your-turn', "it is seat 1's turn")
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from kowah.actions import Action
from kowah.cards import Card
from kowah.deal import Deal
from kowah.i18n import Translator

__all__ = ["Refused", "action_from_dict", "action_to_dict", "declared_wait", "new_deal", "refusal"]


@attrs.frozen
class Refused:
    """Why an action is not legal now: the reason's stable code and its sentence."""

    code: str
    message: str


def action_to_dict(action: Action) -> dict[str, Any]:
    """The record's own form of *action*: ``{"seat": 0, "do": "discard", "card": "5c"}``."""
    return dict(action.to_dict())


def action_from_dict(data: Mapping[str, Any], seat: int) -> Action:
    """The action of *seat* that *data* describes (``{"do": "discard", "card": "5c"}``);
    raises :class:`~kowah.errors.ActionError` for one that cannot be built."""
    return Action.from_dict(data, seat=seat)


def refusal(deal: Deal, action: Action, t: Translator) -> Refused | None:
    """Why *action* is illegal in *deal* now, in *t*'s language, or ``None`` when it is legal."""
    refused = deal.why_illegal(action)
    if refused is None:
        return None
    return Refused(refused.reason.value, t.refusal(refused))


def declared_wait(deal: Deal, seat: int) -> Card | None:
    """The public wait of *seat*, once it has declared (R11)."""
    return deal.declared_wait(seat)


def new_deal(seed: int, deck: Sequence[Card] | None, first: int | None) -> Deal:
    """A deal: the explicit *deck* (and *first* seat, else one drawn from *seed*), or a
    shuffle fixed by *seed*."""
    if deck is not None:
        if first is None:
            first = Deal.shuffled(seed).first
        return Deal(deck, first)
    return Deal.shuffled(seed, first=first)
