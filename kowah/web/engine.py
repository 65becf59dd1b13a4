"""The few engine calls the browser table makes, in one place.

Everything the web layer asks of :mod:`kowah.deal` and :mod:`kowah.record` goes through here:
actions to and from their record form, why an action is refused (a reason code and its
localised sentence), a new deal from a seed or an explicit deck, a declared seat's wait.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from kowah.cards import Card
from kowah.deal import Action, ActionKind, Deal
from kowah.errors import N_, IllegalActionError, KowahError
from kowah.i18n import Translator

__all__ = ["Refused", "action_from_dict", "action_to_dict", "declared_wait", "new_deal", "refusal"]


class Refused:
    """Why an action is not legal now: a stable code and the sentence in some language."""

    __slots__ = ("code", "message")

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message


def action_to_dict(action: Action) -> dict[str, Any]:
    """The record's own form of *action*: ``{"seat": 0, "do": "discard", "card": "5c"}``."""
    entry: dict[str, Any] = {"seat": action.seat, "do": action.kind.value}
    if action.kind is ActionKind.DISCARD:
        entry["card"] = str(action.card)
    elif action.kind is ActionKind.DECLARE:
        entry["wait"] = str(action.card)
    return entry


_KINDS = {kind.value: kind for kind in ActionKind}


def action_from_dict(data: Mapping[str, Any], seat: int) -> Action:
    """The action of *seat* that *data* describes (``{"do": "discard", "card": "5c"}``)."""
    if "seat" in data and data["seat"] != seat:
        raise KowahError(N_("error", "the action is for seat {seat}, not seat {expected}"),
                         seat=data["seat"], expected=seat)
    do = data.get("do")
    kind = _KINDS.get(do) if isinstance(do, str) else None
    if kind is None:
        raise KowahError(N_("error", "unknown action {value!r} (draw, take, discard, declare or pass)"),
                         value=do)
    key = {ActionKind.DISCARD: "card", ActionKind.DECLARE: "wait"}.get(kind)
    if key is None:
        return Action(seat, kind)
    code = data.get(key)
    if not isinstance(code, str):
        raise KowahError(N_("error", "missing key {key!r}"), key=key)
    return Action(seat, kind, Card.parse(code))


def refusal(deal: Deal, action: Action, t: Translator) -> Refused | None:
    """Why *action* is illegal in *deal* now, in *t*'s language, or ``None`` when it is legal."""
    if deal.is_legal(action):
        return None
    try:
        deal.copy().apply(action)
    except IllegalActionError as error:
        code = "-".join(error.reason_template.replace("{", "").replace("}", "").split()[:4])
        return Refused(code, t.error(error))
    return None  # pragma: no cover - is_legal and apply agree


def declared_wait(deal: Deal, seat: int) -> Card | None:
    """The public wait of *seat*, once it has declared (R11)."""
    return deal.wait(seat)


def new_deal(seed: int, deck: Sequence[Card] | None, first: int | None) -> Deal:
    """A deal: the explicit *deck* (and *first* seat), or a shuffle fixed by *seed*."""
    if deck is not None:
        return Deal(deck, first if first is not None else random.Random(seed).randrange(3))
    deal = Deal.shuffled(random.Random(seed))
    if first is not None and first != deal.first:
        deal = Deal(deal.deck, first)
    return deal
