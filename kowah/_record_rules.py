"""How a ``kowah-record/1`` record writes and reads the rules its deal was played under.

Private to the package (:mod:`kowah.record` uses it); its names are public within it.

A record of the default rules writes neither key, so that every older record still means
what it meant (rules.py, "Adding a variant"). ``"pack"`` is ``"kowah"`` (the default),
``"money"`` (V1) or, for any other :class:`~kowah.cards.Pack`, an object with its name and
counts; ``"rules"`` holds the settings that differ from their defaults, and a reader refuses
a setting it does not know: a deal read under rules it does not understand would be replayed
as another game.

>>> from kowah.cards import Pack
>>> rules = Rules(pack=Pack("short pack", [3] * 30 + [0] * 3), no_progress_turns=12)
>>> written = rules_to_dict(rules)
>>> written["pack"]["counts"]["5c"], written["rules"]
(3, {'no_progress_turns': 12})
>>> rules_from_dict(written) == rules
True
>>> rules_from_dict({"rules": {"locked_take": True}})
Traceback (most recent call last):
...
kowah.errors.RecordError: 'rules': unknown setting 'locked_take' (a record's rules may set no_progress_turns)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NotRequired, TypedDict

from kowah.cards import KINDS, MAX_COPIES, Card, Pack
from kowah.engine import KOWAH_RULES, MONEY_RULES, PACK_NAMES, Rules
from kowah.errors import N_, KowahError, RecordError, shorten

__all__ = [
    "PACK_NAME_LIMIT",
    "SETTINGS",
    "PackDict",
    "RulesDict",
    "WrittenRules",
    "plain",
    "rules_from_dict",
    "rules_to_dict",
]

#: The settings a record's ``"rules"`` object may hold, each a field of :class:`Rules`.
SETTINGS = ("no_progress_turns",)
#: The longest name a custom pack may have in a record.
PACK_NAME_LIMIT = 60
_NAME = N_("error", "'pack': a pack's name in a record must be 1 to {limit} characters, with no control "
                    "or bidirectional formatting character, not {value}")
_CODES = tuple(str(Card(kind)) for kind in range(KINDS))


class PackDict(TypedDict):
    """A pack other than the two a record names: its name and its counts by card code."""

    name: str
    counts: dict[str, int]  #: each kind the pack holds -> its copies (kinds left out: none)


class RulesDict(TypedDict, total=False):
    """A record's ``"rules"``: the settings that differ from their defaults."""

    no_progress_turns: int  #: R17's limit


class WrittenRules(TypedDict):
    """What :func:`rules_to_dict` adds to a record: nothing for the default rules."""

    pack: NotRequired[str | PackDict]
    rules: NotRequired[RulesDict]


#: The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they
#: reorder the text around them when it is shown, so a tag could show what it does not hold.
_BIDI_CONTROLS = frozenset(range(0x202A, 0x202F)) | frozenset(range(0x2066, 0x206A))


def plain(text: str) -> bool:
    """Whether *text* holds no control character (C0, DEL or C1), no bidirectional override,
    embedding or isolate and no lone surrogate (no UTF-8 text holds one), as the schema says."""
    return not any(ord(char) < 32 or 127 <= ord(char) <= 159 or ord(char) in _BIDI_CONTROLS
                   or 0xD800 <= ord(char) <= 0xDFFF for char in text)



def rules_to_dict(rules: Rules) -> WrittenRules:
    """The record keys that say *rules*: ``{}`` for :data:`~kowah.engine.KOWAH_RULES`.

    Raises :class:`~kowah.errors.RecordError` for a pack whose name a record cannot hold
    (empty, longer than :data:`PACK_NAME_LIMIT`, or with control characters)."""
    written: WrittenRules = {}
    name = rules.pack_name
    if name == "money":
        written["pack"] = "money"
    elif name is None:
        pack = rules.pack
        if not 0 < len(pack.name) <= PACK_NAME_LIMIT or not plain(pack.name):
            raise RecordError(_NAME, key="pack", limit=PACK_NAME_LIMIT, value=shorten(pack.name))
        written["pack"] = {"name": pack.name,
                           "counts": {_CODES[kind]: count for kind, count in enumerate(pack.counts) if count}}
    settings: RulesDict = {}
    if rules.no_progress_turns != KOWAH_RULES.no_progress_turns:
        settings["no_progress_turns"] = rules.no_progress_turns
    if settings:
        written["rules"] = settings
    return written


def rules_from_dict(data: Mapping[str, Any]) -> Rules:
    """The rules a decoded record names with ``"pack"`` and ``"rules"`` (both optional).

    Refuses, with a :class:`~kowah.errors.RecordError` naming the key (``error.params["key"]``),
    a pack or a setting it does not know and values that make no valid :class:`Rules`.

    >>> rules_from_dict({}) is KOWAH_RULES, rules_from_dict({"pack": "money"}).pack_name
    (True, 'money')
    >>> rules_from_dict({"rules": {"no_progress_turns": 0}})
    Traceback (most recent call last):
    ...
    kowah.errors.RecordError: 'rules': no_progress_turns must be at least 1, not 0
    """
    pack = _pack(data.get("pack", "kowah"))
    settings = data.get("rules", {})
    if not isinstance(settings, Mapping):
        raise RecordError(N_("error", "'rules' must be an object of settings, not {value}"),
                          key="rules", value=shorten(settings))
    for key in settings:
        if key not in SETTINGS:
            raise RecordError(N_("error", "'rules': unknown setting {name!r} (a record's rules may set "
                                          "{known})"), key="rules", name=key, known=", ".join(SETTINGS))
    turns = settings.get("no_progress_turns", KOWAH_RULES.no_progress_turns)
    if not isinstance(turns, int) or isinstance(turns, bool):
        raise RecordError(N_("error", "'rules': no_progress_turns must be a whole number, not {value}"),
                          key="rules", value=shorten(turns))
    rules = _checked(lambda: Rules(pack=pack), "pack")  # too small a pack, or no ready hand
    rules = _checked(lambda: rules.replace(no_progress_turns=turns), "rules")  # a limit below 1
    return next((preset for preset in (KOWAH_RULES, MONEY_RULES) if preset == rules), rules)


def _checked(make: Callable[[], Rules], key: str) -> Rules:
    """*make()*, its error a RecordError naming *key* (and translated as its cause is)."""
    try:
        return make()
    except KowahError as error:
        failure = RecordError(N_("error", "{key!r}: {reason}"), key=key, reason=str(error))
        failure.cause = error
        raise failure from None


def _pack(value: object) -> Pack:
    if isinstance(value, str) and value in PACK_NAMES:
        return PACK_NAMES[value]
    if not isinstance(value, Mapping):  # a list or a number is no pack either
        raise RecordError(N_("error", "'pack' must be \"kowah\", \"money\" or an object with a name and "
                                      "counts, not {found!r}"), key="pack", found=value)
    for key in value:
        if key not in ("name", "counts"):
            raise RecordError(N_("error", "'pack': unknown key {name!r} (a pack has a name and counts)"),
                              key="pack", name=key)
    name, counts = value.get("name"), value.get("counts")
    if not isinstance(name, str) or not 0 < len(name) <= PACK_NAME_LIMIT or not plain(name):
        raise RecordError(_NAME, key="pack", limit=PACK_NAME_LIMIT, value=shorten(name))
    if not isinstance(counts, Mapping) or not counts:
        raise RecordError(N_("error", "'pack': 'counts' must be an object of card codes and copies, not "
                                      "{value}"), key="pack", value=shorten(counts))
    found = [0] * KINDS
    for code, count in counts.items():
        if code not in _CODES:  # written exactly, in lower case, as a writer writes it
            raise RecordError(N_("error", "'pack': unknown card code {code!r} in 'counts'"),
                              key="pack", code=code)
        if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COPIES:
            raise RecordError(N_("error", "'pack': the count of {card} must be a whole number from 1 to "
                                          "{most}, not {value}"),
                              key="pack", card=code, most=MAX_COPIES, value=shorten(count))
        found[_CODES.index(code)] = count
    return Pack(name, found)
