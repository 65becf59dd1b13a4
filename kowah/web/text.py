"""Every word the browser table shows, from the catalogues (context ``"web"``).

The page gets them as one JSON dictionary (:func:`page_strings`), so its scripts hold no
text of their own. Plural forms are sent worked out for every count the page can show.

>>> strings = page_strings(translator("cs"))
>>> strings["tab.rules"]
'Úplná pravidla'
>>> count_text(strings, "count.cards", 3).replace("\\xa0", " ")  # a no-break space
'3 karty'
"""

from __future__ import annotations

import functools
from typing import Any

from kowah.cards import Card
from kowah.errors import N_
from kowah.events import Outcome
from kowah.i18n import LANGUAGE_NAMES, LANGUAGES, Translator, translator

__all__ = ["LANGUAGE_NAMES", "MESSAGES", "count_text", "outcome_text", "page_strings", "player_name",
           "strength_name", "words"]

#: The page's messages by key (English, the source text).
MESSAGES: dict[str, str] = {
    "title": N_("web", "Kowah – you against two AIs"),
    "settings": N_("web", "Settings"),
    "language": N_("web", "Language"),
    "contrast": N_("web", "Contrast"),
    "grain": N_("web", "Grain"),
    "temperature": N_("web", "Colour temperature"),
    "temperature.warm": N_("web", "warmer"),
    "temperature.cool": N_("web", "cooler"),
    "pace": N_("web", "AI pace"),
    "strength": N_("web", "AI strength (next deal)"),
    "pace.0": N_("web", "Instant"),
    "pace.fast": N_("web", "Fast"),
    "pace.normal": N_("web", "Normal"),
    "pace.slow": N_("web", "Slow"),
    "pack.line": N_("web", "Chinese money cards · 132 cards: Coins, Strings and Myriads, with flower "
                           "cards"),
    "pack.about": N_("web", "The money pack holds four copies of each of these 33 cards. The Kowah "
                            "deck plays with 120 of them: the 108 suit cards and four each of the "
                            "first three honours. The twelve White Snakes, Green Snakes and Monks "
                            "are left out."),
    "pack.in": N_("web", "in the Kowah deck"),
    "pack.out": N_("web", "left out"),
    "summary": N_("web", "3 players · You against two AIs · One deal"),
    "tab.table": N_("web", "Table"),
    "tab.rules": N_("web", "Full rules"),
    "you": N_("web", "You"),
    "seat": N_("web", "Seat {seat}"),
    "ai": N_("web", "AI ({strength})"),
    "stock": N_("web", "Stock"),
    "back": N_("web", "Card back"),
    "cards.count": N_("web", "Cards in hand"),
    "discards": N_("web", "Discards"),
    "latest": N_("web", "Latest discard"),
    "public": N_("web", "Public draws"),
    "declared": N_("web", "Declared checki: waits for"),
    "hand": N_("web", "Your hand"),
    "hand.locked": N_("web", "Your hand is locked: your turns play themselves."),
    "turn": N_("web", "Turn"),
    "log": N_("web", "What happened"),
    "draw": N_("web", "Draw"),
    "take": N_("web", "Take {card}"),
    "take.plain": N_("web", "Take"),
    "declare": N_("web", "Declare checki"),
    "declare.wait": N_("web", "Declare checki, waiting for {card}"),
    "pass": N_("web", "Pass"),
    "hint": N_("web", "Hint"),
    "new-deal": N_("web", "New deal"),
    "download": N_("web", "Download record"),
    "discard.card": N_("web", "Discard {card}"),
    "status.start": N_("web", "Your turn: draw from the stock or take the latest discard."),
    "status.draw": N_("web", "Your turn: draw from the stock."),
    "status.discard": N_("web", "Discard a card: click it, or press its number."),
    "status.declare": N_("web", "Your hand is ready: declare checki, or pass."),
    "status.wait": N_("web", "Seat {seat} is playing…"),
    "status.over": N_("web", "The deal is over."),
    "status.loading": N_("web", "Dealing…"),
    "outcome": N_("web", "The end of the deal"),
    "winning.hand": N_("web", "Winning hand of seat {seat}"),
    "winning.yours": N_("web", "Your winning hand"),
    "winning.card": N_("web", "winning card"),
    "lost": N_("web", "You lose this deal."),
    "keys": N_("web", "Keys: D draw · T take · C declare · P pass · 1–9 discard · H hint · N new deal"),
    "error.network": N_("web", "The table cannot reach the server. Is it still running?"),
    "error.stale": N_("web", "The table has moved on (another tab or a double click): here is the "
                             "current state."),
    "error.gone": N_("web", "This game is no longer on the server: a new deal starts."),
}
# Counted words: the catalogue's plural messages (context, singular, plural).
_PLURALS = {"count.cards": ("cli", "{count} card", "{count} cards")}


#: The largest count the page shows with a plural form (cards in the stock, a pile, a hand).
MAX_COUNT = 132


@functools.cache
def words(language: str) -> Translator:
    """The translator of one of :data:`~kowah.i18n.LANGUAGES` (a language code already
    checked), without negotiating the tag again on every request.

    >>> words("it").language
    'it'
    """
    return translator(language)


def strength_name(t: Translator, name: str) -> str:
    """An AI strength (one of :data:`kowah.players.PLAYERS`) in *t*'s language."""
    return t.level_name(name)


def player_name(t: Translator, seat: int, opponents: str) -> str:
    """How the page names *seat*: "You", or "Seat 1 · AI (normal)"."""
    if seat == 0:
        return t.gettext("web", MESSAGES["you"])
    strength = strength_name(t, opponents)
    return (t.gettext("web", MESSAGES["seat"]).format(seat=seat) + " · "
            + t.gettext("web", MESSAGES["ai"]).format(strength=strength))


def outcome_text(t: Translator, outcome: Outcome, viewer: int) -> str:
    """How the deal ended, with its multiplier only (R15), said to *viewer* when it won
    (:meth:`kowah.i18n.Translator.outcome`)."""
    return t.outcome(outcome, viewer=viewer)


def page_strings(t: Translator) -> dict[str, Any]:
    """Every message of the page in *t*'s language, by key, plus what the scripts need to
    write counts (``plural``: the form for each count 0…MAX_COUNT) and card names."""
    strings: dict[str, Any] = {key: t.gettext("web", message) for key, message in MESSAGES.items()}
    for key, (context, one, many) in _PLURALS.items():
        forms: list[str] = []
        index: list[int] = []
        for n in range(MAX_COUNT + 1):
            form = t.ngettext(context, one, many, n)
            if form not in forms:
                forms.append(form)
            index.append(forms.index(form))
        strings[key] = {"forms": forms, "index": index}
    strings["cards"] = {card.code: t.card_name(card) for card in Card}
    strings["cards.short"] = {card.code: t.card_name(card, short=True) for card in Card}
    return strings


def count_text(strings: dict[str, Any], key: str, n: int) -> str:
    """*n* with the plural form of *key* from :func:`page_strings` (as the scripts do it)."""
    plural = strings[key]
    form = plural["forms"][plural["index"][min(n, MAX_COUNT)]]
    return str(form).format(count=n)


def all_languages() -> dict[str, dict[str, Any]]:
    """:func:`page_strings` in every language (for tests and the docs)."""
    return {language: page_strings(translator(language)) for language in LANGUAGES}
