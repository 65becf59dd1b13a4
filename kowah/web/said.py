"""The page's sentences that name a card, a seat or a person, composed in the text layer.

The page's scripts never join a name to translated text and never pick a grammatical form
(see "How a sentence names a card, a seat or a person" in :mod:`kowah.i18n`). They get:

* :func:`card_sentences`: for each sentence that names one card, its text for every card,
  finished (embedded in the page once, with and without the cards' codes);
* :func:`state_sentences`: the sentences of one state that name seats, people or several
  cards (sent with each state, in the viewer's language);
* :func:`review_sentences`: the review's labels of each seat's hand and discards.

A template may keep a number's placeholder (``{count}``, ``{position}``) for the page to fill
with a number or a counted phrase; every name in it is already in place.

>>> from kowah.web.text import words
>>> card_sentences(words("it"))["take"]["6s"]
'Prendi il sei di filze'
>>> state = {"seat": 0, "players": ["Tu", "Posto 1 · IA (normale)", "Posto 2 · IA (normale)"],
...          "seats": [], "hand": ["5c"], "discards": [[], ["9c"], []], "declared": [None, "5c", None],
...          "legal": [], "outcome": None}
>>> said = state_sentences(words("it"), state)
>>> said["waiting"][1], said["waits"]
('Il posto 1 sta giocando…', 'Il posto 1 ha dichiarato checki e attende il cinque di monete.')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kowah.actions import SEATS
from kowah.cards import Card
from kowah.errors import N_
from kowah.i18n import Named, Translator

__all__ = ["CARD_SENTENCES", "STATE_SENTENCES", "card_sentences", "review_sentences",
           "state_sentences"]

#: The sentences that name one card (context ``"web"``), by the page's key.
CARD_SENTENCES: dict[str, str] = {
    # TRANSLATORS: a button; {card:object} is the card as a verb's object (with its article
    # where your language has one); write {card} instead for the name on its own.
    "take": N_("web", "Take {card:object}"),
    # TRANSLATORS: a card button's accessible name ({card:object}: see "Take {card:object}").
    "discard": N_("web", "Discard {card:object}"),
    # TRANSLATORS: the card just drawn, a button's accessible name; nothing may agree with the
    # card's gender unless the form says so (write "the card you just drew" out).
    "discard.new": N_("web", "Discard {card:object} (the card you just drew)"),
    # TRANSLATORS: the card just drawn when it cannot be discarded now.
    "new": N_("web", "{card} (the card you just drew)"),
    "declare": N_("web", "Declare checki, waiting for {card:object}"),
    "latest": N_("web", "Latest discard: {card}"),
    # TRANSLATORS: a seat's badge in the review: the seat has declared checki.
    "declared": N_("web", "Declared checki: waits for {card:object}"),
    # TRANSLATORS: a card's tooltip; {position} is its position in the hand (1–9).
    "title": N_("web", "{card} (position {position})"),
}

#: The sentences of a state that name seats, people or several cards (context ``"web"``).
STATE_SENTENCES: dict[str, str] = {
    # TRANSLATORS: the status line while another seat plays; {name:subject} is a seat or
    # person as a sentence's subject ("Seat 2", "Bo"); {name} would be its label
    # ("Seat 2 · AI (normal)").
    "waiting": N_("web", "{name:subject} is playing…"),
    # TRANSLATORS: the people list of a friends' table: the viewer's own row, with their name.
    "you-named": N_("web", "{name} (you)"),
    "hand": N_("web", "Your hand: {cards}."),
    "no-hand": N_("web", "You have no hand: you are watching this table."),
    # TRANSLATORS: {name} is a seat's label ("You", "Bo", "Seat 2"), before a colon.
    "discards": N_("web", "{name}: {cards}."),
    "no-discards": N_("web", "{name}: no discards yet."),
    "waits": N_("web", "{name:subject} has declared checki and waits for {card:object}."),
    "waits-you": N_("web", "You have declared checki and wait for {card:object}."),
    "no-waits": N_("web", "Nobody has declared checki yet."),
    # TRANSLATORS: {cards:object|or} lists the waits the hand offers, joined by "or" (one of
    # them is declared), each as a verb's object; {cards:or} lists the names on their own.
    "ready": N_("web", "Your hand is ready: you may declare checki waiting for {cards:object|or}."),
    # TRANSLATORS: the command box's answer to "declare" when the hand offers several waits;
    # {cards:object|or}: see "Your hand is ready: …".
    "which-wait": N_("web", "Which wait: {cards:object|or}?"),
    "deal": N_("web", "A new deal. Your hand: {cards}."),
    # TRANSLATORS: {name} is a seat's label ("Bo", "Seat 2 · AI (normal)").
    "winning": N_("web", "Winning hand of {name}"),
    # TRANSLATORS: a seat's discards, for screen readers: {name} is the seat's label;
    # {count} becomes "3 cards".
    "pile": N_("web", "Discards of {name}: {count}"),
    # TRANSLATORS: the viewer's own discards, for screen readers; {count} becomes "3 cards".
    "pile-you": N_("web", "Your discards: {count}"),
    # TRANSLATORS: said after a badge ("Turn", "online") to tell whose it is; {name} is the
    # seat's label.
    "owner": N_("web", "({name})"),
    "hand-of": N_("web", "Hand of {name}"),
    "discards-of": N_("web", "Discards of {name}"),
    # The viewer's own, in the second person ("Your hand", never "Hand of You").
    "hand-of-you": N_("web", "Your hand"),
    "discards-of-you": N_("web", "Your discards"),
    # TRANSLATORS: the command box's answer to "who", one line per seat: {name} is the seat's
    # short label ("You", "Bo", "Seat 2"), {status} a badge word ("online", "AI", "not here yet").
    "who": N_("web", "{name}: {status}."),
    # TRANSLATORS: the command box's answer to "clock" at a table without a turn clock.
    "clock-none": N_("web", "This table has no turn clock."),
    # TRANSLATORS: the answer to "clock" on your turn; {count} becomes "12 seconds".
    "clock-you": N_("web", "Time left for your turn: {count}."),
    # TRANSLATORS: the answer to "clock" on another person's turn; {count} becomes "12 seconds",
    # {name} is the seat's label ("Bo", "Seat 2").
    "clock-other": N_("web", "Time left to play: {count} ({name})."),
    # TRANSLATORS: the answer to "clock" when no clock runs (an AI plays, the deal is over);
    # {count} is each turn's time ("60 seconds").
    "clock-idle": N_("web", "Turn clock: {count} a turn; it is not running now."),
}

#: The badge words of the "who" answer, by a seat's state: the people list's badges (context
#: ``"web"``), marked for translation where the page's words are (``friends.*`` in
#: :data:`kowah.web.text.MESSAGES`), so that each stays one catalogue entry.
_STATUS = {"ai": "AI", "gone": "left the table", "not-here": "not here yet", "handed": "AI for now",
           "online": "online", "offline": "offline"}
#: A counted time (the page's ``count.seconds``, marked in :mod:`kowah.web.text`).
_SECONDS = ("{count} second", "{count} seconds")


def card_sentences(t: Translator) -> dict[str, dict[str, str]]:
    """Each sentence of :data:`CARD_SENTENCES` for every card, by its code (a ``{position}``
    left for the page to fill), and (``"name"``) each card's name on its own, for labels."""
    said = {key: {card.code: t.sentence("web", message, card=card, position="{position}")
                  for card in Card}
            for key, message in CARD_SENTENCES.items()}
    said["name"] = {card.code: t.card(card) for card in Card}
    return said


def _cards(codes: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in codes)


def _say(t: Translator, key: str, **values: object) -> str:
    return t.sentence("web", STATE_SENTENCES[key], **values)


def _named(t: Translator, state: Mapping[str, Any], seat: int) -> Named:
    """*seat* as the state's viewer sees it: the table's label, and the subject form."""
    seats = state.get("seats") or []
    given = [info.get("name") for info in seats] if seats else None
    return Named(state["players"][seat], t.seat_subject(seat, given))


def _short(t: Translator, state: Mapping[str, Any], seat: int) -> str:
    """A seat's short label: "You", a person's name or "Seat 2" (without the AI's level)."""
    seats = state.get("seats") or []
    given = [info.get("name") for info in seats] if seats else None
    return t.seat_name(seat, viewer=state.get("seat"), names=given)


def _who(t: Translator, state: Mapping[str, Any], short: Sequence[Named]) -> list[dict[str, str]]:
    """Each seat's line of the "who" answer, by its presence (``online`` / ``offline`` for a
    person at the table, whose presence the live socket may change; ``now`` otherwise)."""
    lines = []
    for seat, info in enumerate(state.get("seats") or []):
        def line(status: str, seat: int = seat) -> str:
            return _say(t, "who", name=short[seat], status=t.gettext("web", _STATUS[status]))
        if info.get("left"):
            lines.append({"now": line("gone")})
        elif info.get("kind") == "person" and not info.get("joined"):
            lines.append({"now": line("not-here")})
        elif info.get("handed_over"):
            lines.append({"now": line("handed")})
        elif info.get("kind") == "person":
            lines.append({"online": line("online"), "offline": line("offline")})
        else:
            lines.append({"now": line("ai")})
    return lines


def _clock(t: Translator, state: Mapping[str, Any], named: Sequence[Named]) -> str:
    """The "clock" answer; ``{count}`` is left for the page (the time left, counted)."""
    turn = state.get("turn_seconds")
    if turn is None:
        return _say(t, "clock-none")
    movers = state.get("to_move") or []
    if state.get("seconds_left") is None or not movers:
        count = t.ngettext("web", *_SECONDS, turn).format(count=turn)
        return _say(t, "clock-idle", count=count)
    mover = movers[0]
    if mover == state.get("seat"):
        return _say(t, "clock-you", count="{count}")
    return _say(t, "clock-other", count="{count}", name=named[mover])


def state_sentences(t: Translator, state: Mapping[str, Any]) -> dict[str, Any]:
    """The sentences of *state* (a :meth:`kowah.web.game.Game.state` without them) that name
    seats, people or several cards, in *t*'s language; per seat where the page picks a seat."""
    me = state.get("seat")
    seats = state.get("seats") or []
    named = [_named(t, state, seat) for seat in range(SEATS)]
    short = [Named(_short(t, state, seat), named[seat].subject) for seat in range(SEATS)]
    people = []
    for seat in range(SEATS):
        given = seats[seat].get("name") if seat < len(seats) else None
        if seat == me:
            people.append(_say(t, "you-named", name=Named(given, given)) if given else named[seat].label)
        else:
            people.append(named[seat].label)
    waits = []
    for seat, wait in enumerate(state.get("declared") or []):
        if wait:
            card = Card.parse(wait)
            waits.append(_say(t, "waits-you", card=card) if seat == me
                         else _say(t, "waits", name=named[seat], card=card))
    ready = _cards([action["wait"] for action in state.get("legal") or [] if action.get("do") == "declare"])
    if ready:
        waits.append(_say(t, "ready", cards=ready))
    hand = state.get("hand")
    outcome = state.get("outcome")
    winner = outcome.get("winner") if isinstance(outcome, Mapping) else None
    won = state.get("winning_hand")
    return {
        "waiting": [None if seat == me else _say(t, "waiting", name=named[seat]) for seat in range(SEATS)],
        "people": people,
        "owner": [_say(t, "owner", name=named[seat]) for seat in range(SEATS)],
        "pile": [_say(t, "pile-you" if seat == me else "pile", name=named[seat], count="{count}")
                 for seat in range(SEATS)],
        "hand": _say(t, "no-hand") if hand is None else _say(t, "hand", cards=_cards(hand)),
        "deal": None if hand is None else _say(t, "deal", cards=_cards(hand)),
        "discards": [_say(t, "discards", name=short[seat], cards=_cards(pile)) if pile
                     else _say(t, "no-discards", name=short[seat])
                     for seat, pile in enumerate(state.get("discards") or [])],
        "waits": " ".join(waits) if waits else _say(t, "no-waits"),
        "who": _who(t, state, short),
        "clock": _clock(t, state, named),
        "which-wait": _say(t, "which-wait", cards=ready) if ready else None,
        "winning": None if winner is None or winner == me else _say(t, "winning", name=named[winner]),
        # The winning hand's groups, each labelled by its cards' names (a list of the language).
        "groups": [t.format_list([t.card(card) for card in _cards(group)]) for group in won["groups"]]
        if isinstance(won, Mapping) else [],
    }


def review_sentences(t: Translator, players: Sequence[str],
                     viewer: int | None = None) -> dict[str, list[str]]:
    """The review's labels of each seat's hand and discards (*players*: the seats' labels;
    the *viewer*'s own in the second person).

    >>> from kowah.web.text import words
    >>> review_sentences(words("en"), ["You", "Seat 1 · AI (normal)", "Bo"], viewer=0)["hand-of"]
    ['Your hand', 'Hand of Seat 1 · AI (normal)', 'Hand of Bo']
    """
    said: dict[str, list[str]] = {"hand-of": [], "discards-of": []}
    for seat, name in enumerate(players):
        for key in said:
            mine = seat == viewer
            said[key].append(_say(t, f"{key}-you") if mine else _say(t, key, name=Named(name, name)))
    return said

