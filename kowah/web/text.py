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
from collections.abc import Callable
from typing import Any

from kowah.actions import SEATS
from kowah.cards import Card
from kowah.errors import N_
from kowah.i18n import LANGUAGE_NAMES, LANGUAGES, Translator, translator
from kowah.keys import KEYS, key_letters
from kowah.web.ai_players import label as ai_label
from kowah.web.phrases import phrase_list
from kowah.web.said import card_sentences

__all__ = ["COMMANDS", "EVENING", "KEYS", "LANGUAGE_NAMES", "MESSAGES", "ai_seat", "command_words",
           "count_text", "key_letters", "page_strings", "words"]

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
    "pack.show": N_("web", "The 33 different cards of the pack"),
    "pack.about": N_("web", "The money pack of the rules' source page holds four copies of each of "
                            "these 33 cards. The Kowah deck uses 120 of them: the 108 suit cards and "
                            "four each of the first three honours. The twelve White Snakes, Green "
                            "Snakes and Monks are left out."),
    "pack.in": N_("web", "in the Kowah deck"),
    "pack.out": N_("web", "left out"),
    "summary": N_("web", "3 players · You against two AIs · One deal"),
    "tab.table": N_("web", "Table"),
    "tab.rules": N_("web", "Full rules"),
    "ai": N_("web", "AI ({strength})"),
    "stock": N_("web", "Stock"),
    "back": N_("web", "Card back"),
    "cards.count": N_("web", "Cards in hand"),
    "discards": N_("web", "Discards"),
    "latest": N_("web", "Latest discard"),
    "latest.none": N_("web", "Latest discard: none"),
    "public": N_("web", "Public draws"),
    "declared": N_("web", "Declared checki: waits for"),
    "hand": N_("web", "Your hand"),
    "hand.locked": N_("web", "Your hand is locked: your turns play themselves."),
    "turn": N_("web", "Turn"),
    "log": N_("web", "What happened"),
    "draw": N_("web", "Draw"),
    "take.plain": N_("web", "Take"),
    "declare": N_("web", "Declare checki"),
    "pass": N_("web", "Pass"),
    "hint": N_("web", "Hint"),
    "new-deal": N_("web", "New deal"),
    "download": N_("web", "Download record"),
    "status.start": N_("web", "Your turn: draw from the stock or take the latest discard."),
    "status.draw": N_("web", "Your turn: draw from the stock."),
    "status.discard": N_("web", "Discard a card: click it, or press its number."),
    "status.declare": N_("web", "Your hand is ready: declare checki, or pass."),
    "status.over": N_("web", "The deal is over."),
    "status.loading": N_("web", "Dealing…"),
    "status.waiting": N_("web", "Waiting for everyone to take their seat…"),
    "status.closed": N_("web", "This table is closed."),
    "status.left": N_("web", "You left this table: an AI plays your seat."),
    "status.watching": N_("web", "You are watching this table."),
    "outcome": N_("web", "The end of the deal"),
    "winning.hand": N_("web", "Winning hand of seat {seat}"),
    "winning.yours": N_("web", "Your winning hand"),
    "winning.card": N_("web", "winning card"),
    "lost": N_("web", "You lose this deal."),
    "keys": N_("web", "Keys"),
    "keys.discard": N_("web", "discard the card at that position"),
    "keys.review": N_("web", "step through a review"),
    # TRANSLATORS: after the line of keys; {letters} lists English key letters ("T, H").
    "keys.english": N_("web", "The English letters work too: {letters}."),
    "error.network": N_("web", "The table cannot reach the server. Is it still running?"),
    "error.stale": N_("web", "The table has moved on (another tab or a double click): here is the "
                             "current state."),
    "error.gone": N_("web", "This game is no longer on the server: a new deal starts."),
    # -- settings and the header
    "codes": N_("web", "Show card codes"),
    "sounds": N_("web", "Move sounds"),
    "actions": N_("web", "Your actions"),
    "cancel": N_("web", "Cancel"),
    "record.open": N_("web", "Review a record"),
    "record.bad": N_("web", "This file cannot be reviewed: {problem}"),
    "record.unreadable": N_("web", "This file is not a Kowah record (JSON)."),
    "summary.friends": N_("web", "3 players · Friends at one table · One deal"),
    # -- playing back the others' moves
    "playing": N_("web", "Replaying the moves…"),
    "skip": N_("web", "Skip"),
    "new-deal.confirm": N_("web", "Start a new deal? The deal in progress ends here."),
    "new-card": N_("web", "new"),
    "suggested": N_("web", "suggested"),
    "stock.draw": N_("web", "Draw from the stock"),
    # TRANSLATORS: the stock's accessible name; {count} becomes "96 cards".
    "stock.draw.count": N_("web", "Draw from the stock ({count})"),
    "stock.count": N_("web", "Stock: {count}"),
    "your-wait": N_("web", "Your wait"),
    # -- announcements for screen readers
    "announce.deal.watch": N_("web", "A new deal starts."),
    "announce.ten": N_("web", "Ten seconds left to play."),
    # -- the command box
    "command": N_("web", "Command"),
    "command.go": N_("web", "Send"),
    "command.example": N_("web", "discard 5c · hand · help"),
    "command.help": N_("web", "Type an action: draw, take, discard and a card (its name, its code "
                              "such as 5c, or its position 1–9), declare, pass, hint, new deal, "
                              "skip. Or ask: hand, discards (all, or one seat: discards 2), stock, "
                              "waits, last, turn, clock, who, help."),
    "answer.nothing-yet": N_("web", "Nothing has happened yet."),
    "answer.unknown": N_("web", "“{text}” is not a command. Type help for the list."),
    "answer.not-now": N_("web", "That is not possible now. {status}"),
    "answer.which-card": N_("web", "Which card? Give its name, its code (such as 5c) or its "
                                   "position (1–9)."),
    "answer.not-in-hand": N_("web", "“{text}” is not a card you may discard now."),
    "answer.which-seat": N_("web", "Which seat? Give its number (0, 1 or 2) or its name."),
    # -- friends at one table
    "friends": N_("web", "Play with friends"),
    "friends.table": N_("web", "At this table"),
    "friends.people": N_("web", "People at the table"),
    "friends.two": N_("web", "Two: you and a friend"),
    "friends.three": N_("web", "Three: you and two friends"),
    "friends.your-name": N_("web", "Your name (optional)"),
    "friends.name": N_("web", "Name of the person at seat {seat} (optional)"),
    "friends.level": N_("web", "AI strength for the other seats"),
    "friends.clock": N_("web", "Turn clock"),
    "friends.clock.none": N_("web", "No clock"),
    "friends.start": N_("web", "Start the deal"),
    "friends.when-full": N_("web", "when everyone has taken their seat"),
    "friends.now": N_("web", "at once: AIs sit in the seats not taken yet"),
    "friends.create": N_("web", "Create the table"),
    "friends.invite": N_("web", "Invite link for seat {seat}"),
    "friends.copy": N_("web", "Copy"),
    "friends.copied": N_("web", "Link copied."),
    "friends.watch": N_("web", "Link for spectators"),
    "friends.start-now": N_("web", "Start now with AIs"),
    "friends.waiting": N_("web", "Waiting for: {names}"),
    "friends.online": N_("web", "online"),
    "friends.offline": N_("web", "offline"),
    "friends.ai": N_("web", "AI"),
    "friends.not-here": N_("web", "not here yet"),
    "friends.gone": N_("web", "left the table"),
    "clock": N_("web", "{time} left"),
    "connection.live": N_("web", "Live updates: on."),
    "connection.polling": N_("web", "Live updates lost: the page checks the table every 2 seconds."),
    "leave": N_("web", "Leave the table"),
    "leave.confirm": N_("web", "Leave the table? An AI plays your seat to the end of the deal."),
    "spectator": N_("web", "Spectator"),
    # -- the review of a finished deal
    "review": N_("web", "Review the deal"),
    "review.title": N_("web", "Review of the deal"),
    "review.position": N_("web", "Step {step} of {count}"),
    "review.start": N_("web", "Start"),
    "review.prev": N_("web", "Back"),
    "review.next": N_("web", "Next"),
    "review.end": N_("web", "End"),
    "review.close": N_("web", "Back to the table"),
    "review.coach": N_("web", "The coach"),
    "review.no-advice": N_("web", "No decision of yours at this step."),
    "review.your-choice": N_("web", "your choice"),
    "review.coach-choice": N_("web", "the coach's choice"),
}

#: The command box's words (context ``"command"``), alternatives separated by "|". The English
#: words are understood in every language too.
COMMANDS: dict[str, str] = {
    # TRANSLATORS: words typed in the page's command box; give the usual word(s) of your
    # language, alternatives separated by "|", in lower case, without spaces.
    "draw": N_("command", "draw"),
    "take": N_("command", "take"),
    "discard": N_("command", "discard"),
    "declare": N_("command", "declare|checki"),
    "pass": N_("command", "pass"),
    "hint": N_("command", "hint"),
    "new": N_("command", "new"),
    "skip": N_("command", "skip"),
    "hand": N_("command", "hand"),
    "discards": N_("command", "discards"),
    "stock": N_("command", "stock"),
    "waits": N_("command", "waits|wait"),
    "last": N_("command", "last"),
    "turn": N_("command", "turn"),
    "clock": N_("command", "clock"),
    "who": N_("command", "who"),
    "help": N_("command", "help|?"),
}



def _plurals(t: Translator) -> dict[str, Callable[[int], str]]:
    """The page's counted words (written out, so that the catalogue extraction finds them)."""
    return {
        "count.cards": lambda n: t.ngettext("cli", "{count} card", "{count} cards", n),
        "count.stock": lambda n: t.ngettext("web", "{count} card left in the stock.",
                                            "{count} cards left in the stock.", n),
        "count.seconds": lambda n: t.ngettext("web", "{count} second", "{count} seconds", n),
    }



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


#: The page's messages for an evening at one table (deal after deal, handing a seat to the AI,
#: quick phrases), by key; merged into :func:`page_strings`.
EVENING: dict[str, str] = {
    "next-deal": N_("web", "Next deal"),
    "next-deal.asked": N_("web", "You asked for the next deal: it starts once every person at the "
                                 "table has."),
    "next-deal.now": N_("web", "Start the next deal now"),
    "leave-table": N_("web", "Leave this table"),
    "leave-table.confirm": N_("web", "Leave this table? The AI plays your seat from now on, in this "
                                     "deal and the next ones; the others play on."),
    "close-table": N_("web", "Close the table"),
    "close-table.confirm": N_("web", "Close this table for everyone? The deal ends here for every "
                                     "person at it, and a new deal against two AIs starts for you."),
    "hand-over": N_("web", "Hand to the AI"),
    "hand-over.confirm": N_("web", "Hand this seat to the AI? It plays for that person until they "
                                   "come back, and everyone at the table is told."),
    "hand-over.title": N_("web", "Absent from the table"),
    "friends.handed": N_("web", "AI for now"),
    "phrases": N_("web", "Quick phrases"),
    "deals": N_("web", "Earlier deals at this table"),
}


def ai_seat(t: Translator, label: str, level: str) -> str:
    """A seat an AI of *level* plays, as the table labels it: *label* ("Seat 2", or a person's
    name once an AI plays for them) and "AI (normal)" in *t*'s language.

    >>> ai_seat(words("en"), "Seat 2", "hard")
    'Seat 2 · AI (hard)'
    """
    return f"{label} · " + t.gettext("web", MESSAGES["ai"]).format(strength=ai_label(t, level))


def page_strings(t: Translator) -> dict[str, Any]:
    """Every message of the page in *t*'s language, by key, plus what the scripts need to
    write counts (``plural``: the form for each count 0…MAX_COUNT) and card names."""
    strings: dict[str, Any] = {key: t.gettext("web", message)
                               for key, message in (MESSAGES | EVENING).items()}
    strings["phrases.list"] = phrase_list(t)
    for key, counted in _plurals(t).items():
        forms: list[str] = []
        index: list[int] = []
        for n in range(MAX_COUNT + 1):
            form = counted(n)
            if form not in forms:
                forms.append(form)
            index.append(forms.index(form))
        strings[key] = {"forms": forms, "index": index}
    for seat in range(SEATS):  # "Seat 2": the library's one wording of a seat's name
        strings[f"seat.{seat}"] = t.seat_name(seat)
    strings["cards"] = {card.code: t.card_name(card) for card in Card}
    strings["cards.short"] = {card.code: t.card_name(card, short=True) for card in Card}
    strings["said"] = card_sentences(t)
    strings["said.codes"] = card_sentences(translator(t.language, codes=True))
    strings["keys.letters"] = key_letters(t)
    strings["keys.english"] = dict(KEYS)
    strings["keys.text"] = keys_line(t)
    # The command box's answer to "help": what to type, then the keys (two sentences, whole).
    strings["command.help.keys"] = f'{strings["command.help"]} {strings["keys.text"]}'
    strings["commands"] = {key: command_words(t, key) for key in COMMANDS}
    return strings


def keys_line(t: Translator) -> str:
    """The page's line of keys: each letter and what it does, in *t*'s language, and the
    English letters that work too (where the language's own letters leave them free).

    >>> keys_line(words("en"))[:30]
    'Keys: D Draw · T Take · C Decl'
    >>> keys_line(words("it")).endswith("revisione. Valgono anche le lettere inglesi: T, H.")
    True
    """
    letters = key_letters(t)
    said = {key: t.gettext("web", MESSAGES[key]) for key in (
        "draw", "take.plain", "declare", "pass", "keys.discard", "hint", "new-deal", "skip", "command",
        "keys.review")}
    parts = [(letters["draw"], said["draw"]), (letters["take"], said["take.plain"]),
             (letters["declare"], said["declare"]), (letters["pass"], said["pass"]),
             ("1–9", said["keys.discard"]), (letters["hint"], said["hint"]),
             (letters["new"], said["new-deal"]), ("Esc", said["skip"]), ("/", said["command"]),
             ("← →", said["keys.review"])]
    line = t.gettext("web", MESSAGES["keys"]) + ": " + " · ".join(f"{key} {what}" for key, what in parts)
    taken = set(letters.values())
    free = [letter for action, letter in KEYS.items() if letter not in taken]
    if free and free != list(KEYS.values()):  # the list ends, and a sentence follows it
        line += ". " + t.sentence("web", MESSAGES["keys.english"], letters=", ".join(free))
    return line


def command_words(t: Translator, key: str) -> list[str]:
    """The words of the command box for *key* (one of :data:`COMMANDS`): the language's own,
    then the English ones.

    >>> command_words(words("it"), "hand")
    ['mano', 'hand']
    """
    found: list[str] = []
    for text in (t.gettext("command", COMMANDS[key]), COMMANDS[key]):
        for word in text.split("|"):
            word = word.strip().lower()
            if word and word not in found:
                found.append(word)
    return found


def count_text(strings: dict[str, Any], key: str, n: int) -> str:
    """*n* with the plural form of *key* from :func:`page_strings` (as the scripts do it)."""
    plural = strings[key]
    form = plural["forms"][plural["index"][min(n, MAX_COUNT)]]
    return str(form).format(count=n)


def all_languages() -> dict[str, dict[str, Any]]:
    """:func:`page_strings` in every language (for tests and the docs)."""
    return {language: page_strings(translator(language)) for language in LANGUAGES}
