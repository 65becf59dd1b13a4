"""The numbers the documentation states about the project, taken from the package.

``conf.py`` gives them to every page as substitutions (``|n-languages|`` is "six",
``|languages|`` "English, Italian, Czech, Malay, Spanish and Indonesian", ``|rulings|``
"R1–R17"), so a page that uses them cannot go stale; ``tests/test_docs_facts.py`` checks
that no page writes such a number by hand and gets it wrong.
"""

from __future__ import annotations

from kowah.cards import KOWAH_DECK, MONEY_PACK
from kowah.i18n import LANGUAGES
from kowah.rulebook import RULEBOOK

__all__ = ["NUMBER_WORDS", "english_list", "facts", "rst_prolog"]

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")

_ENGLISH_NAMES = {"en": "English", "it": "Italian", "cs": "Czech", "ms": "Malay", "es": "Spanish",
                  "id": "Indonesian"}


def english_list(items: list[str]) -> str:
    """*items* joined as English writes a list.

    >>> english_list(["English", "Italian", "Czech"])
    'English, Italian and Czech'
    """
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def facts() -> dict[str, str]:
    """The substitutions: each name and the text it stands for.

    >>> facts()["n-languages"], facts()["rulings"], facts()["deck"]
    ('six', 'R1–R17', '120')
    """
    rulings = sorted({ruling for section in RULEBOOK for ruling in section.rulings})
    return {
        "n-languages": NUMBER_WORDS[len(LANGUAGES)],
        "languages": english_list([_ENGLISH_NAMES.get(code, code) for code in LANGUAGES]),
        "n-rulings": str(len(rulings)),
        "rulings": f"R{rulings[0]}–R{rulings[-1]}",
        "deck": str(len(KOWAH_DECK)),
        "pack": str(len(MONEY_PACK)),
    }


def rst_prolog() -> str:
    """The reStructuredText that defines the substitutions on every page."""
    return "".join(f".. |{name}| replace:: {value}\n" for name, value in facts().items())
