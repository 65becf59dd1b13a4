"""The command line's options for the rules a deal is played under (``--pack``,
``--no-progress-turns``) and the help for naming players of one's own.

Private to the package (:mod:`kowah.cli` uses it); its names are public within it. It imports
no rules module until the options are read, so ``kowah check`` starts as quickly as before.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from kowah.errors import N_, KowahError

if TYPE_CHECKING:
    from kowah.engine import Rules

__all__ = ["PACKS", "add_rules_options", "rules_from"]

#: The packs a command may be asked for (R2, V1), as records name them.
PACKS = ("kowah", "money")


def add_rules_options(parser: argparse.ArgumentParser, _: Any, *, deals: bool = True) -> None:
    """Add ``--pack`` and, for commands that play deals (*deals*), ``--no-progress-turns``,
    their help in the language of *_* (a gettext function)."""
    parser.add_argument("--pack", choices=PACKS, default="kowah",
                        help=_("cli", "the pack: kowah, the 120-card Kowah deck, or money, the 132-card "
                                      "pack of the rules' source page, with the Snakes and the Monk "
                                      "(default: kowah)"))
    if deals:
        parser.add_argument("--no-progress-turns", type=int, default=None, metavar="N",
                            help=_("cli", "end the deal with no winner after N turns in a row without "
                                          "a draw from the stock (default: 30)"))


def rules_from(args: argparse.Namespace) -> Rules:
    """The rules the parsed *args* ask for (the default rules when no option was given)."""
    from kowah.engine import Rules

    rules = Rules.from_pack_name(args.pack)
    turns = getattr(args, "no_progress_turns", None)
    if turns is not None:
        if turns < 1:
            raise KowahError(N_("error", "--no-progress-turns must be at least 1, not {value}"), value=turns)
        rules = rules.replace(no_progress_turns=turns)
    return rules
