"""The ``kowah check`` command: whether eight cards are ready, their waits and splits, or how
far they are from ready.

Private to the package (:mod:`kowah.cli` runs it); its names are public within it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kowah.errors import KowahError, printable

if TYPE_CHECKING:
    import argparse

    from kowah.i18n import Translator

__all__ = ["check_command"]


def check_command(args: argparse.Namespace, t: Translator) -> int:
    """Run ``kowah check`` (*args* parsed): 0 ready, 1 not ready, 2 bad input."""
    from kowah.cards import KOWAH_DECK, MONEY_PACK, format_cards, parse_cards
    from kowah.errors import CardParseError
    from kowah.hands import distance, improvements, splits, waits

    pack = MONEY_PACK if args.pack == "money" else KOWAH_DECK  # kowah.engine is not needed here
    try:
        cards = parse_cards(" ".join(args.cards), pack)
        found = waits(cards, pack)
        report: dict[str, Any] = {"cards": format_cards(sorted(cards)), "ready": bool(found),
                                  "waits": [str(card) for card in sorted(found)],
                                  "splits": [str(split) for split in splits(cards, pack)],
                                  "distance": distance(cards, pack)}
        if not found:
            report["improvements"] = {str(card): n for card, n in improvements(cards, pack=pack).items()}
    except KowahError as error:
        if not args.json:
            raise
        # As replay --json does: the error as JSON on stdout, so a script reads one format; a
        # card code that cannot be read is named as it was typed, with its place (1-based).
        answer: dict[str, object] = {"error": t.error(error)}
        if isinstance(error, CardParseError):
            answer["token"], answer["position"] = printable(error.token, 60), error.position
        print(_json(answer, ensure_ascii=False))
        return 2
    if args.json:
        print(_json(report))
        return 0 if found else 1
    print(format_cards(sorted(cards)))
    if found:
        names = t.format_list(f"{card} ({t.card_name(card)})" for card in sorted(found))
        print(t.ngettext("cli", "Ready (checki). Wait: {waits}", "Ready (checki). Waits: {waits}",
                         len(found)).format(waits=names))
        print(t.gettext("cli", "Splits:"))
        for split in splits(cards, pack):
            print("  " + t.gettext("cli", "{split}  (wait {card})").format(split=split, card=split.wait))
        return 0
    away = distance(cards, pack)
    print(t.ngettext("cli", "Not ready: at least {n} card must be exchanged.",
                     "Not ready: at least {n} cards must be exchanged.", away).format(n=away))
    helping = improvements(cards, pack=pack)
    if helping:
        listed = t.format_list(f"{card} ({n})" for card, n in helping.items())
        print(t.gettext("cli", "Cards that would bring the hand closer to ready (unseen copies): "
                               "{cards}").format(cards=listed))
    return 1


def _json(value: object, ensure_ascii: bool = True) -> str:
    """*value* as JSON text; json is imported only for --json (it would cost ``kowah check``
    a good part of its start-up)."""
    import json

    return json.dumps(value, ensure_ascii=ensure_ascii)
