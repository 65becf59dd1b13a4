"""The terminal game: one person (seat 0) against two AI players, in any language of the library.

The screen shows only what seat 0 may know (its :class:`~kowah.deal.Observation`): the hand
grouped by rank, the latest discard, the stock, the other seats' card counts and discards,
declared seats with their public waits (R11), public draws after a declaration (R13), whose
turn it is and what just happened. Commands are short and forgiving; see :data:`COMMANDS`.

>>> import io
>>> from kowah.i18n import translator
>>> out = io.StringIO()
>>> play_in_terminal(translator("en"), seed=1, opponents="random", record_path=None,
...                  stdin=io.StringIO("quit\\n"), stdout=out, color=False, pace=0)
0
>>> "Your hand" in out.getvalue()
True
"""

from __future__ import annotations

import random
import time
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO

from kowah import SEATS, Action, ActionKind, Deal, Event, Observation, Outcome, Phase, Reason
from kowah.cards import Card
from kowah.errors import N_, IllegalActionError, KowahError
from kowah.i18n import describe_event
from kowah.players import Player, _Observer, make_player
from kowah.record import Record

# The AI strengths as shown to the person (the names on the command line stay English).
_STRENGTHS = {"random": N_("player", "random"), "normal": N_("player", "normal"),
              "hard": N_("player", "hard")}

__all__ = ["COMMANDS", "play_in_terminal"]

#: The person's seat.
HUMAN = 0

#: Command words: English words and short forms; their translations (context "cli") are
#: accepted too, as are unambiguous beginnings of any of them.
COMMANDS: dict[str, tuple[str, ...]] = {
    "draw": (N_("cli", "draw"), "d"),
    "take": (N_("cli", "take"), "t"),
    "discard": (N_("cli", "discard"), "x"),
    "declare": (N_("cli", "declare"), "checki", "c"),
    "pass": (N_("cli", "pass"), "p"),
    "yes": (N_("cli", "yes"), "y"),
    "no": (N_("cli", "no"), "n"),
    "help": (N_("cli", "help"), "?", "h"),
    "rules": (N_("cli", "rules"),),
    "quit": (N_("cli", "quit"), "q", "exit"),
}


# What the engine's reasons (kowah.actions.Reason) say about "a seat", said to the person.
_TO_YOU: dict[Reason, str] = {
    Reason.NOT_DECLARING: N_(
        "cli", "You can declare checki, or pass, only right after your own discard, with a ready hand."),
    Reason.MUST_DISCARD: N_(
        "cli", "You have drawn or taken a card already: now discard one (its code or position)."),
    Reason.DRAW_FIRST: N_(
        "cli", "Draw (d) or take the latest discard (t) first, then discard."),
    Reason.OPENING_DRAW: N_("cli", "The opening turn must draw from the stock."),
    Reason.NO_DISCARD: N_("cli", "There is no discard to take."),
    Reason.TAKEN_CARD: N_(
        "cli", "You may not discard the card you have just taken."),
    Reason.NOT_IN_HAND: N_("cli", "{card} is not in your hand."),
    Reason.NOT_A_WAIT: N_(
        "cli", "{card} is not a wait of your hand (waits: {waits})."),
    Reason.NOT_YOUR_TURN: N_("cli", "It is seat {turn}'s turn."),
}

# The end of a deal that seat 0 won, by kind of win (R14, R15).
_YOU_WIN = {
    "self-draw": N_("cli", "You win by self-draw with {card}, ×{multiplier}."),
    "discard": N_("cli", "You win by claiming the discard {card}, ×{multiplier}."),
    "draw-claim": N_("cli", "You win by claiming the stock draw {card}, ×{multiplier}."),
}


class Text(Protocol):
    """What the table needs of a translator (:class:`kowah.i18n.Translator` has it all)."""

    def gettext(self, context: str, message: str) -> str: ...
    def ngettext(self, context: str, singular: str, plural: str, n: int) -> str: ...
    def card_name(self, card: Card, short: bool = False) -> str: ...
    def outcome(self, outcome: Any) -> str: ...
    def error(self, exc: KowahError) -> str: ...
    def format_list(self, items: Iterable[str], style: Any = ...) -> str: ...


def _fold(word: str) -> str:
    """*word* in lower case without accents, for forgiving matching of typed commands."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


class _Quit(Exception):
    """The person asked to stop, or the input ended."""


# ANSI colours (only with color=True): suits and honours, and emphasis.
_RESET = "\033[0m"
_BOLD = "\033[1m"
_DIM = "\033[2m"
_SUIT_COLOURS = ("\033[33m", "\033[32m", "\033[36m")  # coins yellow, strings green, myriads cyan
_HONOUR_COLOUR = "\033[35m"
_ALERT = "\033[1;31m"


class _Table:
    def __init__(self, t: Text, deal: Deal, players: Sequence[Player | None], names: Sequence[str],
                 stdin: TextIO, stdout: TextIO, color: bool, pace: float) -> None:
        self.t = t
        self.deal = deal
        self.players = players
        self.names = names
        self.stdin = stdin
        self.stdout = stdout
        self.color = color
        self.pace = pace
        self.observer = _Observer(deal)
        self.shown = 0  # events of seat 0's view already narrated
        self.words = self._command_words()
        try:
            self.echo_free = stdin.isatty()  # a terminal echoes what is typed itself
        except (AttributeError, ValueError):
            self.echo_free = False

    # -- output --

    def write(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def style(self, text: str, code: str) -> str:
        return f"{code}{text}{_RESET}" if self.color else text

    def card(self, card: Card) -> str:
        code = str(card)
        if not self.color:
            return code
        colour = _HONOUR_COLOUR if card.is_honour else _SUIT_COLOURS[card % 3]
        return f"{colour}{code}{_RESET}"

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(card) for card in cards)

    # -- narration of what happened --

    def narrate(self, observation: Observation) -> None:
        """Tell every event of seat 0's view that has not been told yet."""
        for event in observation.events[self.shown:]:
            line = self.describe(event)
            if line:
                self.write("  " + line)
                if event.seat is not None and event.seat != HUMAN and self.pace > 0:
                    time.sleep(self.pace)
        self.shown = len(observation.events)

    def describe(self, event: Event) -> str:
        if event.kind in ("win", "drawn"):
            return ""  # the outcome is told at the end
        return describe_event(self.t, event, HUMAN, self.card)

    # -- the screen --

    def show(self, observation: Observation) -> None:
        t = self.t
        self.write()
        self.write(self.style("— " + t.gettext("cli", "Kowah") + " — " + t.ngettext(
            "cli", "stock: {count} card", "stock: {count} cards", observation.stock_count
        ).format(count=observation.stock_count), _BOLD))
        for seat in range(SEATS):
            if seat == HUMAN:
                continue
            size = observation.hand_sizes[seat]
            line = t.gettext("cli", "Seat {seat} ({player}): {cards}").format(
                seat=seat, player=self.names[seat],
                cards=t.ngettext("cli", "{count} card", "{count} cards", size).format(count=size))
            wait = observation.declared_waits[seat]
            if wait is not None:
                line += "  " + self.style(t.gettext("cli", "DECLARED, waits for {card} ({name})").format(
                    card=str(wait), name=t.card_name(wait)), _ALERT)
            self.write(line)
            pile = observation.discards[seat]
            if pile:
                self.write("    " + t.gettext("cli", "discards: {cards}").format(cards=self.cards(pile)))
        pile = observation.discards[HUMAN]
        if pile:
            self.write(t.gettext("cli", "Your discards: {cards}").format(cards=self.cards(pile)))
        if observation.public_draws:
            recent = observation.public_draws[-6:]
            self.write(t.gettext("cli", "Public draws: {draws}").format(draws=", ".join(
                f"{seat}:{self.card(card)}" for seat, card in recent)))
        latest = observation.latest_discard
        if latest is not None:
            self.write(t.gettext("cli", "Latest discard: {card} ({name})").format(
                card=self.card(latest), name=t.card_name(latest)))
        wait = observation.declared_waits[HUMAN]
        if wait is not None:
            self.write(self.style(t.gettext("cli", "You have declared: you wait for {card} ({name}).").format(
                card=str(wait), name=t.card_name(wait)), _BOLD))
        self.write(t.gettext("cli", "Your hand: {cards}").format(cards=self.hand_line(observation.hand)))

    def hand_line(self, hand: Sequence[Card]) -> str:
        """The hand sorted and grouped by rank (each honour its own group), with positions."""
        parts: list[str] = []
        group = None
        for position, card in enumerate(hand, start=1):
            if group is not None and card.group != group:
                parts.append(self.style("|", _DIM))
            group = card.group
            parts.append(f"{self.style(str(position), _DIM)}:{self.card(card)}")
        return " ".join(parts)

    # -- input --

    def _command_words(self) -> dict[str, str]:
        words: dict[str, str] = {}
        for command, forms in COMMANDS.items():
            words[command] = command
            for form in forms:
                words[_fold(form)] = command
                words[_fold(self.t.gettext("cli", form))] = command
        return words

    def command(self, word: str) -> str | None:
        """The command a word names: exactly, or as the unambiguous beginning of one word.

        Case and accents are ignored, so ``liznout`` is understood as ``líznout``.
        """
        word = _fold(word)
        if word in self.words:
            return self.words[word]
        found = {command for form, command in self.words.items() if len(form) > 1 and form.startswith(word)}
        return found.pop() if len(found) == 1 else None

    def ask(self, prompt: str) -> str:
        self.stdout.write(self.style(prompt, _BOLD) + " ")
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.write()
            raise _Quit
        if not self.echo_free:
            self.write(line.strip())  # piped input: show it, so that the transcript reads well
        return line.strip()

    def problem(self, message: str) -> None:
        self.write("  " + self.style(message, _ALERT))

    def help(self) -> None:
        t = self.t
        for line in (
            t.gettext("cli", "Commands:"),
            t.gettext("cli", "  draw, d            draw the top card of the stock"),
            t.gettext("cli", "  take, t            take the latest discard"),
            t.gettext("cli", "  5c, or 3           discard a card: its code or its position in your hand"),
            t.gettext("cli", "  declare [5c], c    declare checki after your discard, naming the wait"),
            t.gettext("cli", "  pass, p            do not declare now"),
            t.gettext("cli", "  rules              show the rules"),
            t.gettext("cli", "  help, ?            show this help"),
            t.gettext("cli", "  quit, q            stop playing"),
            t.gettext("cli", "Card codes: 1c–9c Coins, 1s–9s Strings, 1m–9m Myriads, ot Old Thousand, "
                             "rf Red Flower, wf White Flower."),
        ):
            self.write(line)

    def rules(self) -> None:
        try:
            from kowah.i18n import Translator, render_rules
        except ImportError:  # pragma: no cover - the text layer ships with the package
            self.help()
            return
        t = self.t
        self.write(render_rules(t if isinstance(t, Translator) else "en", "text"))

    def prompt_for(self, observation: Observation, legal: Sequence[Action]) -> str:
        t = self.t
        kinds = {action.kind for action in legal}
        if ActionKind.DECLARE in kinds:
            waits = [str(action.card) for action in legal if action.kind is ActionKind.DECLARE]
            return t.gettext(
                "cli", "Your hand is ready! Declare checki (declare {waits}) or pass (p)?"
            ).format(waits=t.format_list(waits, style="or"))
        if observation.phase is Phase.START:
            latest = observation.latest_discard
            if ActionKind.TAKE in kinds and latest is not None:
                return t.gettext("cli", "Your turn: draw (d) or take {card} (t)?").format(card=str(latest))
            return t.gettext("cli", "Your turn: draw (d)?")
        return t.gettext("cli", "Discard which card (code or position 1–{count})?").format(
            count=len(observation.hand))

    def parse(self, text: str, observation: Observation, legal: Sequence[Action]) -> Action | str | None:
        """The action the person typed, a command name (help, rules, quit), or ``None``."""
        words = text.replace(",", " ").split()
        if not words:
            return None
        seat = HUMAN
        first = words[0]
        command = self.command(first)
        if command is None:
            card = self.card_at(first, observation)
            if card is None:
                return None
            if len(words) > 1:
                return None
            if any(action.kind is ActionKind.DECLARE for action in legal):
                return Action.declare(seat, card)
            return Action.discard(seat, card)
        rest = words[1:]
        if command in ("help", "rules", "quit"):
            return command if not rest else None
        if command == "draw" and not rest:
            return Action.draw(seat)
        if command == "take" and not rest:
            return Action.take(seat)
        if command in ("pass", "no") and not rest:
            return Action.pass_(seat)
        if command == "discard" and len(rest) == 1:
            card = self.card_at(rest[0], observation)
            return Action.discard(seat, card) if card is not None else None
        if command in ("declare", "yes"):
            if len(rest) == 1:
                card = self.card_at(rest[0], observation)
                return Action.declare(seat, card) if card is not None else None
            if not rest:
                return "declare"
        return None

    def card_at(self, token: str, observation: Observation) -> Card | None:
        """A card code (R3), or the 1-based position of a card in the hand."""
        if token.isdigit():
            index = int(token) - 1
            return observation.hand[index] if 0 <= index < len(observation.hand) else None
        try:
            card = Card.parse(token)
        except KowahError:
            return None
        return card if card < 30 else None

    # -- the deal --

    def human_turn(self, observation: Observation) -> None:
        t = self.t
        legal = observation.legal_actions
        deal = self.deal
        if len(legal) == 1:  # a locked hand's draw and discard, the opening draw
            deal.apply(legal[0])
            return
        if observation.phase is Phase.DISCARD and observation.turn == HUMAN:
            self.write(t.gettext("cli", "Your hand: {cards}").format(cards=self.hand_line(observation.hand)))
        else:
            self.show(observation)
        while True:
            text = self.ask(self.prompt_for(observation, legal))
            if not text:
                continue
            choice = self.parse(text, observation, legal)
            if choice == "quit":
                raise _Quit
            if choice == "help":
                self.help()
                continue
            if choice == "rules":
                self.rules()
                continue
            if choice == "declare":
                if not any(action.kind is ActionKind.DECLARE for action in legal):
                    self.problem(t.gettext("cli", _TO_YOU[Reason.NOT_DECLARING]))
                    continue
                choice = self.choose_wait(legal)
            if not isinstance(choice, Action):
                self.problem(t.gettext(
                    "cli", "I did not understand “{text}”. Type help or ? for the commands."
                ).format(text=text))
                continue
            if choice not in legal:
                self.problem(self.why_not(choice))
                continue
            deal.apply(choice)
            return

    def choose_wait(self, legal: Sequence[Action]) -> Action:
        """The declaration the person picks when the hand offers several waits (R8), or a pass."""
        t = self.t
        declares = [action for action in legal if action.kind is ActionKind.DECLARE]
        if len(declares) == 1:
            return declares[0]
        waits = t.format_list([str(action.card) for action in declares], style="or")
        while True:
            question = t.gettext("cli", "Which wait will you expose: {waits}? (p: do not declare)")
            text = self.ask(question.format(waits=waits))
            for action in declares:
                if _fold(text) == str(action.card):
                    return action
            command = self.command(text) if text else None
            if command == "quit":
                raise _Quit
            if command in ("pass", "no"):
                return Action.pass_(HUMAN)
            self.problem(t.gettext("cli", "Choose {waits}, or p not to declare.").format(waits=waits))

    def why_not(self, action: Action) -> str:
        """Why an action the person typed is not legal now, in their language, said to them."""
        refusal = self.deal.why_illegal(action)
        if refusal is None:  # pragma: no cover - only refused actions are explained
            return self.t.gettext("cli", "That is not possible now.")
        mine = _TO_YOU.get(refusal.reason)
        if mine is None:
            return self.t.error(IllegalActionError(refusal))
        params = {key: str(value) if isinstance(value, Card) else value
                  for key, value in refusal.params.items()}
        return self.t.gettext("cli", mine).format(**params)

    def end(self, outcome: Outcome) -> None:
        """Tell how the deal ended (with the multiplier only, R15) and show the winning hand."""
        t = self.t
        self.write()
        winner, card = outcome.winner, outcome.card
        if winner == HUMAN and card is not None and outcome.by in _YOU_WIN:
            line = t.gettext("cli", _YOU_WIN[outcome.by]).format(
                card=str(card), multiplier=outcome.multiplier)
        else:
            line = t.outcome(outcome)
        self.write(self.style(line, _BOLD))
        if winner is not None and card is not None:
            cards = self.cards(_winning_hand(self.deal, winner, card))
            if winner == HUMAN:
                self.write(t.gettext("cli", "Your winning hand: {cards}").format(cards=cards))
                return
            self.write(t.gettext("cli", "You lose this deal."))
            self.write(t.gettext("cli", "Seat {seat}'s winning hand: {cards}").format(
                seat=winner, cards=cards))
        self.write(t.gettext("cli", "Your hand: {cards}").format(cards=self.hand_line(self.deal.hand(HUMAN))))

    def play(self) -> None:
        deal = self.deal
        while not deal.is_over:
            seat = deal.to_move()[0]
            observation = self.observer.observation(HUMAN)
            self.narrate(observation)
            if seat == HUMAN:
                self.human_turn(observation)
                continue
            player = self.players[seat]
            assert player is not None
            seen = self.observer.observation(seat)
            deal.apply(player.choose(seen, seen.legal_actions))
        self.narrate(self.observer.observation(HUMAN))


def _winning_hand(deal: Deal, seat: int, card: Card) -> list[Card]:
    """The winner's eight cards and the card that won (a claimed card is not in the hand)."""
    hand = list(deal.hand(seat))
    return hand if len(hand) > 8 else sorted([*hand, card])


def play_in_terminal(translator: Text, *, seed: int | None, opponents: str, record_path: Path | None,
                     stdin: TextIO, stdout: TextIO, color: bool, pace: float) -> int:
    """Play one deal at the terminal: the person at seat 0, two *opponents* AIs at seats 1 and 2.

    *seed* fixes the shuffle, the first seat and the AIs' choices (``None``: fresh each time).
    At the end the outcome is shown with its multiplier (R15) and the game record is saved to
    *record_path*, or the person is offered to save it. Returns the exit code: 0 when the deal
    ended or the person quit, 1 when the record could not be saved.
    """
    t = translator
    rng = random.Random(seed)
    deal = Deal.shuffled(rng)
    strength = t.gettext("player", _STRENGTHS.get(opponents, opponents))
    names = ["", strength, strength]
    players: list[Player | None] = [None] + [make_player(opponents, random.Random(rng.getrandbits(64)))
                                              for _ in range(SEATS - 1)]
    table = _Table(t, deal, players, names, stdin, stdout, color, pace)
    table.write(table.style(t.gettext("cli", "Kowah: you are seat 0, against two AI players "
                                             "(strength: {player}). Type help or ? for the "
                                             "commands.").format(player=strength),
                            _BOLD))
    table.write(t.gettext("cli", "Seat {seat} plays first.").format(seat=deal.first))
    quit_early = False
    try:
        table.play()
    except _Quit:
        quit_early = True
        table.write(t.gettext("cli", "You leave the table."))
    except BrokenPipeError:  # the output was closed (e.g. piped into head): stop quietly
        return 1
    outcome = deal.outcome
    if outcome is not None:
        table.end(outcome)
    return _save(table, deal, record_path, ask=not quit_early and table.echo_free)


def _save(table: _Table, deal: Deal, record_path: Path | None, ask: bool) -> int:
    t = table.t
    path = record_path
    if path is None:
        if not ask:
            return 0
        try:
            answer = table.ask(t.gettext(
                "cli", "Save the game record? Type a file name, or press Enter to skip:"))
        except _Quit:
            return 0
        if not answer:
            return 0
        path = Path(answer).expanduser()
    try:
        path.write_text(Record.from_deal(deal).dumps(indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        table.problem(t.gettext("cli", "Could not save the record to {path}: {reason}").format(
            path=str(path), reason=error.strerror or str(error)))
        return 1
    table.write(t.gettext("cli", "Record saved to {path}.").format(path=str(path)))
    return 0
