"""The options both environments share, checked: the rules, the reward scheme, the limits.

>>> from kowah import MONEY_RULES
>>> choose_rules(None, "money") == MONEY_RULES, choose_rules(None, None).pack_name
(True, 'kowah')
>>> rewards_of(None, "win"), check_reward("multiplier")
((0.0, 0.0, 0.0), 'multiplier')
>>> check_reward("money")
Traceback (most recent call last):
...
kowah.errors.KowahError: unknown reward scheme 'money' (choose multiplier or win)
"""

from __future__ import annotations

from typing import Any, Final

from kowah.cards import Pack
from kowah.engine import KOWAH_RULES, SEATS, Rules
from kowah.env.encoding import COPIES
from kowah.errors import N_, DeckError, KowahError, KowahTypeError, shorten
from kowah.events import Outcome

__all__ = [
    "ENCODINGS",
    "RENDER_MODES",
    "REWARDS",
    "check_encoding",
    "check_max_cycles",
    "check_render_mode",
    "check_reward",
    "choose_rules",
    "outcome_info",
    "rewards_of",
]

#: The reward schemes: ``"multiplier"`` (the default) pays the winner its multiplier (R15) and
#: charges each other seat half of it; ``"win"`` pays 1 and charges ½, whatever the multiplier.
REWARDS: Final = ("multiplier", "win")
#: The observation encodings: ``"compact"`` (the default; :mod:`kowah.env.encoding`), small
#: integers; ``"one-hot"`` (:mod:`kowah.env.onehot`), floats 0–1 for a generic network.
ENCODINGS: Final = ("compact", "one-hot")
#: The render modes: the table as the terminal game shows it, as text or printed.
RENDER_MODES: Final = ("ansi", "human")


def choose_rules(rules: Rules | None, pack: str | Pack | None) -> Rules:
    """The rules an environment plays by: *rules*, or the rules of *pack* (a :class:`Pack` or
    its record name, ``"kowah"`` or ``"money"``); the Kowah deck's by default (R2)."""
    if rules is not None and pack is not None:
        raise KowahError(N_("error", "give the rules or the pack, not both"))
    if rules is None:
        if pack is None:
            rules = KOWAH_RULES
        elif isinstance(pack, Pack):
            rules = Rules(pack=pack)
        else:
            rules = Rules.from_pack_name(pack)
    if not isinstance(rules, Rules):
        raise KowahTypeError(N_("error", "rules must be a Rules value, such as Rules(pack=MONEY_PACK), "
                                            "not {value} of type {type}"),
                             value=shorten(rules), type=type(rules).__name__)
    for card in rules.pack.kinds:
        if rules.pack.copies(card) > COPIES:
            raise DeckError(N_("error", "the environment plays packs of at most {most} copies of a card; "
                                        "the {pack} has {count} of {card}"),
                            most=COPIES, pack=rules.pack.name, count=rules.pack.copies(card), card=card)
    return rules


def check_reward(reward: str) -> str:
    """*reward*, one of :data:`REWARDS`."""
    if reward not in REWARDS:
        raise KowahError(N_("error", "unknown reward scheme {value} (choose multiplier or win)"),
                         value=shorten(reward))
    return reward


def check_encoding(encoding: str) -> str:
    """*encoding*, one of :data:`ENCODINGS`.

    >>> check_encoding("one-hot")
    'one-hot'
    >>> check_encoding("onehot")
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: unknown encoding 'onehot' (choose compact or one-hot)
    """
    if encoding not in ENCODINGS:
        raise KowahError(N_("error", "unknown encoding {value} (choose compact or one-hot)"),
                         value=shorten(encoding))
    return encoding


def check_max_cycles(max_cycles: int | None) -> int | None:
    """*max_cycles*: ``None`` (no limit) or a whole number of at least 1."""
    if max_cycles is None:
        return None
    if type(max_cycles) is not int or max_cycles < 1:
        error = KowahError if type(max_cycles) is int else KowahTypeError
        raise error(N_("error", "max_cycles must be None or a whole number of at least 1, not {value}"),
                    value=shorten(max_cycles))
    return max_cycles


def check_render_mode(render_mode: str | None) -> str | None:
    """*render_mode*: ``None`` or one of :data:`RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise KowahError(N_("error", "unknown render mode {value} (choose ansi or human)"),
                         value=shorten(render_mode))
    return render_mode


def rewards_of(outcome: Outcome | None, reward: str) -> tuple[float, float, float]:
    """Each seat's reward for *outcome* under the scheme *reward* (zero-sum; R15).

    >>> from kowah import Card, Outcome
    >>> rewards_of(Outcome.win(2, "self-draw", Card.C5), "multiplier")
    (-1.5, -1.5, 3.0)
    >>> rewards_of(Outcome.win(0, "discard", Card.C5), "win")
    (1.0, -0.5, -0.5)
    """
    if outcome is None or outcome.winner is None or outcome.multiplier is None:
        return (0.0, 0.0, 0.0)  # in progress, or drawn (R16, R17)
    stake = float(outcome.multiplier) if reward == "multiplier" else 1.0
    result = [-stake / 2] * SEATS
    result[outcome.winner] = stake
    return (result[0], result[1], result[2])


def outcome_info(outcome: Outcome | None) -> dict[str, Any]:
    """What the last ``info`` of an episode says of the deal's end: ``"winner"`` (the winning
    seat, −1 for a drawn deal), ``"kind"`` (how it was won, a :class:`~kowah.WinBy` value, or
    why it was drawn, a :class:`~kowah.DrawnBy` value) and ``"multiplier"`` (R15; 0 for a
    drawn deal). Plain numbers and strings, so that vector environments gather them into
    arrays. Empty while the deal goes on.

    >>> from kowah import Card, DrawnBy, Outcome
    >>> outcome_info(Outcome.win(2, "self-draw", Card.C5))
    {'winner': 2, 'kind': 'self-draw', 'multiplier': 3}
    >>> outcome_info(Outcome.drawn(DrawnBy.EXHAUSTION))
    {'winner': -1, 'kind': 'exhaustion', 'multiplier': 0}
    """
    if outcome is None:
        return {}
    by = outcome.by
    assert by is not None
    winner = -1 if outcome.winner is None else outcome.winner
    return {"winner": winner, "kind": by.value, "multiplier": outcome.multiplier or 0}
