"""The table as a seat sees it, in words: the part of the terminal game that only shows.

Private to the package; :func:`render_table` is public as :func:`kowah.terminal.render_table`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from kowah._screen import ALERT, BOLD, Screen
from kowah.cards import Card
from kowah.deal import Observation
from kowah.engine import SEATS
from kowah.i18n import Translator

__all__ = ["last_discard", "render_table", "write_table"]


def last_discard(observation: Observation) -> Card | None:
    """The card discarded last, unless a seat took it since."""
    for event in reversed(observation.events):
        if event.kind == "take":
            return None
        if event.kind == "discard":
            return event.card
    return None


def write_table(screen: Screen, t: Translator, observation: Observation, names: Sequence[str] | None) -> None:
    """Write the table as *observation*'s seat sees it (see :func:`render_table`)."""
    you = observation.seat
    waits = observation.declared_waits
    screen.write(screen.style("— " + t.gettext("cli", "Kowah") + " — " + t.ngettext(
        "cli", "stock: {count} card", "stock: {count} cards", observation.stock_count
    ).format(count=observation.stock_count), BOLD))
    for seat in range(SEATS):
        if seat == you:
            continue
        size = observation.hand_sizes[seat]
        cards = t.ngettext("cli", "{count} card", "{count} cards", size).format(count=size)
        if names is None:
            line = t.gettext("cli", "Seat {seat}: {cards}").format(seat=seat, cards=cards)
        else:
            line = t.gettext("cli", "Seat {seat} ({player}): {cards}").format(
                seat=seat, player=names[seat], cards=cards)
        wait = waits[seat]
        if wait is not None:
            line += "  " + screen.style(t.gettext("cli", "DECLARED, waits for {card} ({name})").format(
                card=str(wait), name=t.card_name(wait)), ALERT)
        screen.write(line)
        pile = observation.discards[seat]
        if pile:
            screen.write("    " + t.gettext("cli", "discards: {cards}").format(cards=screen.cards(pile)))
    pile = observation.discards[you]
    if pile:
        screen.write(t.gettext("cli", "Your discards: {cards}").format(cards=screen.cards(pile)))
    if observation.public_draws:
        recent = observation.public_draws[-6:]
        screen.write(t.gettext("cli", "Public draws: {draws}").format(draws=", ".join(
            _public_draw(screen, t, you, seat, card) for seat, card in recent)))
    latest = observation.latest_discard
    if latest is None and waits[you] is not None:
        latest = last_discard(observation)  # not takeable by a locked seat (R12), but shown
    if latest is not None:
        screen.write(t.gettext("cli", "Latest discard: {card} ({name})").format(
            card=screen.card(latest), name=t.card_name(latest)))
    wait = waits[you]
    if wait is not None:
        screen.write(screen.style(t.gettext("cli", "You have declared: you wait for {card} ({name}).").format(
            card=str(wait), name=t.card_name(wait)), BOLD))
    screen.write(t.gettext("cli", "Your hand: {cards}").format(cards=screen.hand_line(observation.hand)))


def _public_draw(screen: Screen, t: Translator, you: int, seat: int, card: Card) -> str:
    """One public draw (R13), worded so that the seat cannot be read as a hand position."""
    if seat == you:
        text = t.gettext("cli", "{card} by you").format(card=screen.card(card))
    else:
        text = t.gettext("cli", "{card} by seat {seat}").format(card=screen.card(card), seat=seat)
    return text.replace(" ", "\u00a0")  # one draw is never split across two lines


def render_table(observation: Observation, t: Translator, *, names: Sequence[str] | None = None,
                 width: int = 80, color: bool = False) -> str:
    """The table as the terminal game shows it, seen by *observation*'s seat: the stock, the
    other seats (with *names*, one per seat, when given), discards, declarations and their
    public waits (R11), public draws (R13), the latest discard, and the hand. Lines are
    wrapped to *width* columns; *color* adds the terminal's colours.

    >>> from kowah import Deal
    >>> from kowah.i18n import translator
    >>> print(render_table(Deal.shuffled(seed=1).observation(2), translator("en"), width=60))
    — Kowah — stock: 96 cards
    Seat 0: 8 cards
    Seat 1: 8 cards
    Your hand: 1:1m | 2:5s | 3:7c 4:7m | 5:8m 6:8m | 7:9c | 8:wf
    """
    out = io.StringIO()
    write_table(Screen(io.StringIO(), out, color, width), t, observation, names)
    return out.getvalue().rstrip("\n")
