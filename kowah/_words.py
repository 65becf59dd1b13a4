"""The words of the text layer: card names in the forms sentences need, and the sentences of a
deal (its events, its outcome, the seats and the AI levels), marked for translation.

Private to the text layer (:mod:`kowah.i18n` reads it). A card has four names:

* ``FULL`` (context ``"card"``): the name on its own, as in a list, a label or after a
  colon: "Five of Coins", "Red Flower";
* ``SHORT`` (context ``"card"``): a short name for tight spaces: "5 Coins";
* ``OBJECT`` (context ``"card (object)"``): the name as the object of a verb, with the
  article or in the case the language needs there: "You discard *the Five of Coins*",
  Czech "Odhazujete *pětku mincí*" (accusative);
* ``WITH`` (context ``"card (with)"``): "with" and the name: "Seat 2 wins *with the Five
  of Coins*", Czech "vyhrává *s pětkou mincí*" (the instrumental, and *se* before *sedmičkou*
  or *Starým tisícem*: the preposition is part of the form because it changes with the word).
  Sentences take it as ``{with_card}``.

Every sentence that names a card is written so that one of these forms fits it in every
language (see ``locales/GLOSSARY.md``); no sentence glues an article or an ending to a name.
"""

from __future__ import annotations

from kowah.cards import Card
from kowah.errors import N_

__all__ = [
    "DRAWN",
    "DRAWN_EVENT",
    "EVENT_OTHER",
    "EVENT_YOU",
    "FULL",
    "HIDDEN_DRAW",
    "HIDDEN_DRAW_YOU",
    "LEVELS",
    "OBJECT",
    "SEAT",
    "SHORT",
    "SUBJECT",
    "WIN_OTHER",
    "WIN_YOU",
    "WITH",
    "YOU",
]

# Full card names. Listed literally so that extraction finds them.
FULL: dict[Card, str] = {
    Card.C1: N_("card", "One of Coins"),
    Card.S1: N_("card", "One of Strings"),
    Card.M1: N_("card", "One of Myriads"),
    Card.C2: N_("card", "Two of Coins"),
    Card.S2: N_("card", "Two of Strings"),
    Card.M2: N_("card", "Two of Myriads"),
    Card.C3: N_("card", "Three of Coins"),
    Card.S3: N_("card", "Three of Strings"),
    Card.M3: N_("card", "Three of Myriads"),
    Card.C4: N_("card", "Four of Coins"),
    Card.S4: N_("card", "Four of Strings"),
    Card.M4: N_("card", "Four of Myriads"),
    Card.C5: N_("card", "Five of Coins"),
    Card.S5: N_("card", "Five of Strings"),
    Card.M5: N_("card", "Five of Myriads"),
    Card.C6: N_("card", "Six of Coins"),
    Card.S6: N_("card", "Six of Strings"),
    Card.M6: N_("card", "Six of Myriads"),
    Card.C7: N_("card", "Seven of Coins"),
    Card.S7: N_("card", "Seven of Strings"),
    Card.M7: N_("card", "Seven of Myriads"),
    Card.C8: N_("card", "Eight of Coins"),
    Card.S8: N_("card", "Eight of Strings"),
    Card.M8: N_("card", "Eight of Myriads"),
    Card.C9: N_("card", "Nine of Coins"),
    Card.S9: N_("card", "Nine of Strings"),
    Card.M9: N_("card", "Nine of Myriads"),
    Card.OT: N_("card", "Old Thousand"),
    Card.RF: N_("card", "Red Flower"),
    Card.WF: N_("card", "White Flower"),
    Card.WS: N_("card", "White Snake"),
    Card.GS: N_("card", "Green Snake"),
    Card.MK: N_("card", "Monk"),
}


# Short names for tight spaces; the honours' names are short already.
SHORT: dict[Card, str] = {
    Card.C1: N_("card", "1 Coin"),
    Card.S1: N_("card", "1 String"),
    Card.M1: N_("card", "1 Myriad"),
    Card.C2: N_("card", "2 Coins"),
    Card.S2: N_("card", "2 Strings"),
    Card.M2: N_("card", "2 Myriads"),
    Card.C3: N_("card", "3 Coins"),
    Card.S3: N_("card", "3 Strings"),
    Card.M3: N_("card", "3 Myriads"),
    Card.C4: N_("card", "4 Coins"),
    Card.S4: N_("card", "4 Strings"),
    Card.M4: N_("card", "4 Myriads"),
    Card.C5: N_("card", "5 Coins"),
    Card.S5: N_("card", "5 Strings"),
    Card.M5: N_("card", "5 Myriads"),
    Card.C6: N_("card", "6 Coins"),
    Card.S6: N_("card", "6 Strings"),
    Card.M6: N_("card", "6 Myriads"),
    Card.C7: N_("card", "7 Coins"),
    Card.S7: N_("card", "7 Strings"),
    Card.M7: N_("card", "7 Myriads"),
    Card.C8: N_("card", "8 Coins"),
    Card.S8: N_("card", "8 Strings"),
    Card.M8: N_("card", "8 Myriads"),
    Card.C9: N_("card", "9 Coins"),
    Card.S9: N_("card", "9 Strings"),
    Card.M9: N_("card", "9 Myriads"),
    Card.OT: FULL[Card.OT],
    Card.RF: FULL[Card.RF],
    Card.WF: FULL[Card.WF],
    Card.WS: FULL[Card.WS],
    Card.GS: FULL[Card.GS],
    Card.MK: FULL[Card.MK],
}

OBJECT: dict[Card, str] = {
    # TRANSLATORS: the card as the object of a verb ("You discard {card}",
    # "waiting for {card}"), with the article it takes there: it "il cinque di monete",
    # es "el cinco de monedas", cs the accusative "pětku mincí".
    Card.C1: N_("card (object)", "the One of Coins"),
    Card.S1: N_("card (object)", "the One of Strings"),
    Card.M1: N_("card (object)", "the One of Myriads"),
    Card.C2: N_("card (object)", "the Two of Coins"),
    Card.S2: N_("card (object)", "the Two of Strings"),
    Card.M2: N_("card (object)", "the Two of Myriads"),
    Card.C3: N_("card (object)", "the Three of Coins"),
    Card.S3: N_("card (object)", "the Three of Strings"),
    Card.M3: N_("card (object)", "the Three of Myriads"),
    Card.C4: N_("card (object)", "the Four of Coins"),
    Card.S4: N_("card (object)", "the Four of Strings"),
    Card.M4: N_("card (object)", "the Four of Myriads"),
    Card.C5: N_("card (object)", "the Five of Coins"),
    Card.S5: N_("card (object)", "the Five of Strings"),
    Card.M5: N_("card (object)", "the Five of Myriads"),
    Card.C6: N_("card (object)", "the Six of Coins"),
    Card.S6: N_("card (object)", "the Six of Strings"),
    Card.M6: N_("card (object)", "the Six of Myriads"),
    Card.C7: N_("card (object)", "the Seven of Coins"),
    Card.S7: N_("card (object)", "the Seven of Strings"),
    Card.M7: N_("card (object)", "the Seven of Myriads"),
    Card.C8: N_("card (object)", "the Eight of Coins"),
    Card.S8: N_("card (object)", "the Eight of Strings"),
    Card.M8: N_("card (object)", "the Eight of Myriads"),
    Card.C9: N_("card (object)", "the Nine of Coins"),
    Card.S9: N_("card (object)", "the Nine of Strings"),
    Card.M9: N_("card (object)", "the Nine of Myriads"),
    Card.OT: N_("card (object)", "the Old Thousand"),
    Card.RF: N_("card (object)", "the Red Flower"),
    Card.WF: N_("card (object)", "the White Flower"),
    Card.WS: N_("card (object)", "the White Snake"),
    Card.GS: N_("card (object)", "the Green Snake"),
    Card.MK: N_("card (object)", "the Monk"),
}

WITH: dict[Card, str] = {
    # TRANSLATORS: "with" and the card ("wins {card}"), with the article it takes
    # there: it "con il cinque di monete", es "con el cinco de monedas", cs the instrumental
    # "s pětkou mincí", "se sedmičkou mincí".
    Card.C1: N_("card (with)", "with the One of Coins"),
    Card.S1: N_("card (with)", "with the One of Strings"),
    Card.M1: N_("card (with)", "with the One of Myriads"),
    Card.C2: N_("card (with)", "with the Two of Coins"),
    Card.S2: N_("card (with)", "with the Two of Strings"),
    Card.M2: N_("card (with)", "with the Two of Myriads"),
    Card.C3: N_("card (with)", "with the Three of Coins"),
    Card.S3: N_("card (with)", "with the Three of Strings"),
    Card.M3: N_("card (with)", "with the Three of Myriads"),
    Card.C4: N_("card (with)", "with the Four of Coins"),
    Card.S4: N_("card (with)", "with the Four of Strings"),
    Card.M4: N_("card (with)", "with the Four of Myriads"),
    Card.C5: N_("card (with)", "with the Five of Coins"),
    Card.S5: N_("card (with)", "with the Five of Strings"),
    Card.M5: N_("card (with)", "with the Five of Myriads"),
    Card.C6: N_("card (with)", "with the Six of Coins"),
    Card.S6: N_("card (with)", "with the Six of Strings"),
    Card.M6: N_("card (with)", "with the Six of Myriads"),
    Card.C7: N_("card (with)", "with the Seven of Coins"),
    Card.S7: N_("card (with)", "with the Seven of Strings"),
    Card.M7: N_("card (with)", "with the Seven of Myriads"),
    Card.C8: N_("card (with)", "with the Eight of Coins"),
    Card.S8: N_("card (with)", "with the Eight of Strings"),
    Card.M8: N_("card (with)", "with the Eight of Myriads"),
    Card.C9: N_("card (with)", "with the Nine of Coins"),
    Card.S9: N_("card (with)", "with the Nine of Strings"),
    Card.M9: N_("card (with)", "with the Nine of Myriads"),
    Card.OT: N_("card (with)", "with the Old Thousand"),
    Card.RF: N_("card (with)", "with the Red Flower"),
    Card.WF: N_("card (with)", "with the White Flower"),
    Card.WS: N_("card (with)", "with the White Snake"),
    Card.GS: N_("card (with)", "with the Green Snake"),
    Card.MK: N_("card (with)", "with the Monk"),
}


# -- the sentences of a deal -------------------------------------------------------------------


# TRANSLATORS: "You" as a seat's name (a label: the player list, a status line).
YOU = N_("seat", "You")
# TRANSLATORS: a seat as a label ("Seat 2" in the player list).
SEAT = N_("seat", "Seat {seat}")
# TRANSLATORS: a seat as the subject that begins a sentence ("Seat 2 discards ..."):
# it "Il posto {seat}", es "El asiento {seat}", cs "Hráč na místě {seat}".
SUBJECT = N_("seat (subject)", "Seat {seat}")

# Said to the seat that acts ("You ...") and about another seat ("{player} ..."): {player} is
# the seat's subject form (SUBJECT) or a person's name, and always starts the sentence; {card}
# is the card's "object" form, {with_card} its "with" form ("with the Five of Coins").
EVENT_YOU: dict[str, str] = {
    "draw": N_("event", "You draw {card}."),
    "take": N_("event", "You take {card}."),
    "discard": N_("event", "You discard {card}."),
    "declare": N_("event", "You declare checki, waiting for {card}."),
    "win": N_("event", "You win {with_card}."),
}
EVENT_OTHER: dict[str, str] = {
    # TRANSLATORS: {player} is "Seat 2" (its subject form) or a person's name.
    "draw": N_("event", "{player} draws {card}."),
    "take": N_("event", "{player} takes {card}."),
    "discard": N_("event", "{player} discards {card}."),
    "declare": N_("event", "{player} declares checki, waiting for {card}!"),
    "win": N_("event", "{player} wins {with_card}."),
}
HIDDEN_DRAW_YOU = N_("event", "You draw a card.")
HIDDEN_DRAW = N_("event", "{player} draws a card.")
# The outcome (kowah.i18n.Translator.outcome) says why a deal was drawn; the event only that it was.
DRAWN_EVENT = N_("event", "The deal is drawn.")

# How a deal ended (R14–R17), with the multiplier only (R15).
WIN_YOU: dict[str, str] = {
    "self-draw": N_("outcome", "You win {with_card} by self-draw, ×{multiplier}."),
    "discard": N_("outcome", "You win {with_card} by claiming a discard, ×{multiplier}."),
    "draw-claim": N_("outcome", "You win {with_card} by claiming another player's stock draw, "
                                "×{multiplier}."),
}
WIN_OTHER: dict[str, str] = {
    "self-draw": N_("outcome", "{player} wins {with_card} by self-draw, ×{multiplier}."),
    "discard": N_("outcome", "{player} wins {with_card} by claiming a discard, ×{multiplier}."),
    "draw-claim": N_("outcome", "{player} wins {with_card} by claiming another player's stock "
                                "draw, ×{multiplier}."),
}
DRAWN: dict[str, str] = {
    "exhaustion": N_("rules", "The deal is drawn: the stock ran out."),  # R16
    "no-progress": N_("outcome", "The deal ends with no winner: too many turns in a row went by "
                                 "without a card from the stock."),  # R17
}

# The AI levels (kowah.players.PLAYERS), as a player reads them; the names in code stay English.
LEVELS: dict[str, str] = {
    "random": N_("player", "random"),
    "easy": N_("player", "easy"),
    "normal": N_("player", "normal"),
    "hard": N_("player", "hard"),
}
