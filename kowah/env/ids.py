"""The environment's action table: one stable integer id for every kind of action.

An id names what a seat does, not which seat does it (the seat is the agent that acts).
The table holds every card kind of the money pack (V1), so that ids do not change with the
pack; an id that names a card the pack in use lacks is simply never legal.

======== ================================ ===========================================
id       action                           :class:`kowah.Action`
======== ================================ ===========================================
0        draw the top card of the stock   ``Action.draw(seat)`` (R10)
1        take the latest discard          ``Action.take(seat)`` (R10)
2        pass: do not declare now         ``Action.pass_(seat)`` (R11)
3 + k    discard the card of index *k*    ``Action.discard(seat, Card(k))``, k = 0–32
36 + k   declare with the wait *k*        ``Action.declare(seat, Card(k))``, k = 0–32 (R11)
======== ================================ ===========================================

Card indices are :class:`~kowah.cards.Card` values: ``1c 1s 1m 2c … 9m`` are 0–26, then
``ot rf wf ws gs mk`` are 27–32. So ``discard 5c`` is ``3 + 12 = 15`` and ``declare rf`` is
``36 + 28 = 64``.

>>> from kowah import Action, Card
>>> N_ACTIONS
69
>>> action_to_id(Action.discard(1, Card.C5)), action_to_id(Action.declare(0, Card.RF))
(15, 64)
>>> id_to_action(15, seat=2)
Action.discard(2, Card.C5)
>>> [str(id_to_action(i, seat=0)) for i in (0, 1, 2, 3, 35, 36, 68)]
['draw', 'take', 'pass', 'discard 1c', 'discard mk', 'declare 1c', 'declare mk']
>>> id_to_action(69, seat=0)
Traceback (most recent call last):
...
kowah.errors.KowahError: there is no action id 69 (ids are 0 to 68)
"""

from __future__ import annotations

import operator
from typing import Final, SupportsIndex

from kowah.actions import DECLARES, DISCARDS, DRAWS, PASSES, SEATS, TAKES, Action, ActionKind
from kowah.cards import Card
from kowah.errors import N_, ActionTypeError, KowahError, KowahTypeError, shorten

__all__ = [
    "DECLARE",
    "DISCARD",
    "DRAW",
    "IDS",
    "N_ACTIONS",
    "PASS",
    "TAKE",
    "action_names",
    "action_to_id",
    "id_to_action",
]

#: The id of a draw from the stock.
DRAW: Final = 0
#: The id of a take of the latest discard.
TAKE: Final = 1
#: The id of a pass (declining to declare).
PASS: Final = 2
#: The id of the discard of the card of index 0 (``1c``); add the card's index.
DISCARD: Final = 3
#: The id of the declaration with the wait of index 0 (``1c``); add the card's index.
DECLARE: Final = DISCARD + len(Card)
#: How many ids there are: the size of the ``Discrete`` action space.
N_ACTIONS: Final = DECLARE + len(Card)

# Each seat's action of each id: the library's shared Action values.
_BY_ID: Final[tuple[tuple[Action, ...], ...]] = tuple(
    (DRAWS[seat], TAKES[seat], PASSES[seat], *DISCARDS[seat], *DECLARES[seat]) for seat in range(SEATS)
)
#: The id of every shared action of every seat (a declaration naming its wait).
IDS: Final[dict[Action, int]] = {action: index for row in _BY_ID for index, action in enumerate(row)}


def action_to_id(action: Action) -> int:
    """The id of *action* (whichever seat it is of).

    A declaration must name its wait: ``Action.declare(seat, None)`` (the hand's only wait,
    as records allow) has no id of its own.

    >>> from kowah import Action
    >>> action_to_id(Action.take(2)), action_to_id(Action.pass_(0))
    (1, 2)
    >>> action_to_id(Action.declare(0, None))
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: a declaration needs its wait to have an action id
    """
    found = IDS.get(action) if isinstance(action, Action) else None
    if found is not None:
        return found
    if not isinstance(action, Action):
        raise ActionTypeError(N_("error", "expected an Action, not {value} of type {type}"),
                              value=shorten(action), type=type(action).__name__)
    # Every other action equals a shared one: only a declaration without its wait is left.
    raise KowahError(N_("error", "a declaration needs its wait to have an action id"))


def id_to_action(action_id: SupportsIndex, seat: int) -> Action:
    """The action of *seat* that *action_id* names (any integer type, numpy's included).

    >>> id_to_action(0, seat=1)
    Action.draw(1)
    >>> id_to_action("draw", seat=1)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahTypeError: an action id is a whole number, not 'draw' of type str
    """
    if type(action_id) is int:
        index = action_id
    elif isinstance(action_id, bool) or not hasattr(action_id, "__index__"):
        raise KowahTypeError(N_("error", "an action id is a whole number, not {value} of type {type}"),
                             value=shorten(action_id), type=type(action_id).__name__)
    else:
        index = operator.index(action_id)
    if not 0 <= index < N_ACTIONS:
        raise KowahError(N_("error", "there is no action id {value} (ids are 0 to {last})"),
                         value=shorten(index), last=N_ACTIONS - 1)
    if type(seat) is not int or not 0 <= seat < SEATS:
        return Action(seat, ActionKind.DRAW)  # raises the Action's own error for a bad seat
    return _BY_ID[seat][index]


def action_names() -> tuple[str, ...]:
    """Every id's action as text (:func:`str` of the :class:`~kowah.Action`), by id.

    >>> names = action_names()
    >>> len(names), names[15], names[64]
    (69, 'discard 5c', 'declare rf')
    """
    return tuple(str(action) for action in _BY_ID[0])
