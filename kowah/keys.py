"""The one-letter key of each action in each language (context ``"key"``), shared by the
browser page (its keyboard) and the terminal (its prompts and its help): the person's own
letters, and the English ones wherever a language's letter does not take them.

>>> from kowah.i18n import translator
>>> key_letters(translator("cs"))["draw"], terminal_letters(translator("cs"))["draw"]
('L', 'l')
>>> terminal_letters(translator("en"))["hint"]  # h is help in the terminal
'i'
"""

from __future__ import annotations

from kowah.errors import N_
from kowah.i18n import Translator

__all__ = ["ENGLISH_LETTERS", "KEYS", "TERMINAL_RESERVED", "key_letters", "terminal_letters"]

#: The keys of the page's actions (context ``"key"``): one letter each, distinct in a language.
KEYS: dict[str, str] = {
    # TRANSLATORS: the key that draws from the stock: one letter, best the first of the Draw
    # button's word; the six keys (draw, take, declare, pass, hint, new deal) must all differ.
    "draw": N_("key", "D"),
    # TRANSLATORS: the key that takes the latest discard (one letter, unlike the five others).
    "take": N_("key", "T"),
    # TRANSLATORS: the key that declares checki (one letter, unlike the five others).
    "declare": N_("key", "C"),
    # TRANSLATORS: the key that passes (one letter, unlike the five others).
    "pass": N_("key", "P"),
    # TRANSLATORS: the key that asks for a hint (one letter, unlike the five others).
    "hint": N_("key", "H"),
    # TRANSLATORS: the key that starts a new deal (one letter, unlike the five others).
    "new": N_("key", "N"),
}


#: The terminal's English letters for its actions (typed in every language, unless the
#: language's own letter is the same letter for another action).
ENGLISH_LETTERS = {"draw": "d", "take": "t", "declare": "c", "pass": "p", "hint": "i"}
#: Letters the terminal keeps for its own commands (help, quit, discard, yes, no).
TERMINAL_RESERVED = frozenset({"h", "?", "q", "x", "y", "n"})


def key_letters(t: Translator) -> dict[str, str]:
    """The key of each of the page's actions in *t*'s language, one upper-case letter each.

    >>> from kowah.i18n import translator
    >>> key_letters(translator("en"))["draw"], key_letters(translator("cs"))["draw"]
    ('D', 'L')
    """
    return {action: t.gettext("key", letter).strip().upper()[:1] or letter
            for action, letter in KEYS.items()}


def terminal_letters(t: Translator) -> dict[str, str]:
    """The terminal's letter for each of its actions in *t*'s language, in lower case: the
    page's letter, or the English one where the page's is one the terminal keeps."""
    page = key_letters(t)
    return {action: page[action].lower() if page[action].lower() not in TERMINAL_RESERVED else english
            for action, english in ENGLISH_LETTERS.items()}
