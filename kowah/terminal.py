"""The terminal game: one person (seat 0) against two AI players, in any language of the library
(this module was ``kowah.table`` before, a name that still imports, with a ``DeprecationWarning``).

The screen shows only what seat 0 may know (its :class:`~kowah.deal.Observation`): the hand
grouped by rank, the latest discard, the stock, the other seats' card counts and discards,
declared seats with their public waits (R11), public draws after a declaration (R13), whose
turn it is and what just happened. Once the person has declared, their locked turns play
themselves (R12) and the table is shown again at each of them and whenever a seat declares.
Commands are short and forgiving; see :data:`COMMANDS`. Lines are wrapped to the terminal's
width at spaces only; ``rules`` shows the rules a screenful at a time in a terminal, then the
table again.

Leaving: ``quit`` (or the end of the input) leaves the table with exit code 0; Ctrl-C at any
moment leaves it too, with exit code 130 (as shells expect of an interrupted program). In
both cases the record is saved first when a record path was given.

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

import contextlib
import random
import time
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TextIO

from kowah._oserrors import reason as os_reason
from kowah._recordfile import check_record_path, write_record
from kowah._screen import BOLD, Interrupted, Quit, Screen
from kowah._view import render_table, write_table
from kowah.actions import SEATS, Action, ActionKind, Reason
from kowah.cards import Card
from kowah.coach import advise, describe
from kowah.deal import Deal, Observation
from kowah.engine import KOWAH_RULES, Rules
from kowah.errors import N_, IllegalActionError, KowahError, printable
from kowah.events import Event, Outcome, Phase
from kowah.i18n import Translator
from kowah.keys import ENGLISH_LETTERS, terminal_letters
from kowah.players import HUMAN, Player
from kowah.plugins import OwnPlayer, make_seat
from kowah.record import Record

__all__ = ["COMMANDS", "EXIT_INTERRUPTED", "YOUR_REFUSALS", "check_record_path", "play_in_terminal",
           "render_table"]

#: The exit code of a game left with Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

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
    "hint": (N_("cli", "hint"), "i"),
    "rules": (N_("cli", "rules"),),
    "quit": (N_("cli", "quit"), "q", "exit"),
}


#: What the engine's reasons (:class:`~kowah.actions.Reason`) say about "a seat", said to the
#: person at the table (context "cli"); the other reasons are said in the engine's words.
YOUR_REFUSALS: dict[Reason, str] = {
    Reason.NOT_DECLARING: N_(
        "cli", "You can declare checki, or pass, only right after your own discard, with a ready hand."),
    Reason.MUST_DISCARD: N_(
        "cli", "You have drawn or taken a card already: now discard one (its code or position)."),
    Reason.DRAW_FIRST: N_(
        "cli", "Draw ({draw_key}) or take the latest discard ({take_key}) first, then discard."),
    Reason.OPENING_DRAW: N_("cli", "On the opening turn, you must draw from the stock."),
    Reason.NO_DISCARD: N_("cli", "There is no discard to take."),
    Reason.TAKEN_CARD: N_(
        "cli", "You may not discard the card you have just taken."),
    Reason.NOT_IN_HAND: N_("cli", "{card} is not in your hand."),
    Reason.NOT_A_WAIT: N_(
        "cli", "{card} is not a wait of your hand (waits: {waits})."),
    Reason.NOT_YOUR_TURN: N_("cli", "It is seat {turn}'s turn."),
}

def _fold(word: str) -> str:
    """*word* in lower case without accents, for forgiving matching of typed commands."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


class _Typo(Exception):
    """A typed word that names something impossible; the message says what (in words)."""


# Messages the table says about typed positions (R3 codes are the other way to name a card).
_NO_POSITION = N_("cli", "There is no position {position}: your cards are numbered 1 to {count}.")
# A card of the money pack that the Kowah deck leaves out (R2): ws, gs, mk.
_NOT_IN_DECK = N_("cli", "{card} ({name}) is not in the Kowah deck: it is played without the White "
                         "Snake, the Green Snake and the Monk.")
# "discard" without a card.
_WHICH_CARD = N_("cli", "Which card? Type its code or its position in your hand, e.g. “discard 5c” "
                        "or “3”.")

#: How much of a typed line is repeated in a message.
_ECHO_LIMIT = 40


class _Table(Screen):
    def __init__(self, t: Translator, deal: Deal, players: Sequence[Player | None], names: Sequence[str],
                 stdin: TextIO, stdout: TextIO, color: bool, pace: float,
                 width: int | None = None) -> None:
        self.t = t
        self.deal = deal
        self.players = players
        self.names = names
        super().__init__(stdin, stdout, color, width)
        self.pace = pace
        self.shown = 0  # events of seat 0's view already narrated
        self.table_shown = False  # whether the whole table has been shown once
        self.status_due = False  # show the table after the next narration (a declared person)
        self.words = self._command_words()
        #: The person's letter for each action, as the prompts show it (kowah.keys): the page's.
        self.letters = terminal_letters(self.t)
        self.keys = {f"{action}_key": letter for action, letter in self.letters.items()}
        self.own_letters = {letter: action for action, letter in self.letters.items()}

    # -- narration of what happened --

    def narrate(self, observation: Observation) -> None:
        """Tell every event of seat 0's view that has not been told yet.

        With a pace, the AIs' moves are told one at a time; what the person types meanwhile
        is not echoed into the narration and is dropped (it would answer a prompt not yet shown).
        """
        new = observation.events[self.shown:]
        pausing = self.pace > 0 and any(event.seat not in (None, HUMAN) for event in new)
        with self.held_input() if pausing else contextlib.nullcontext():
            self.tell(new, locked=observation.declared_waits[HUMAN] is not None)
        self.shown = len(observation.events)

    def tell(self, events: Sequence[Event], locked: bool) -> None:
        for event in events:
            line = self.describe(event)
            if line:
                self.write("  " + line)
                if event.seat is not None and event.seat != HUMAN and self.pace > 0:
                    time.sleep(self.pace)
            if locked and event.kind == "declare":
                self.status_due = True  # a declared person sees the table whenever anyone declares

    def describe(self, event: Event) -> str:
        if event.kind in ("win", "drawn"):
            return ""  # the outcome is told at the end
        return self.t.event(event, HUMAN)

    # -- the screen --

    def show(self, observation: Observation) -> None:
        self.table_shown = True
        self.write()
        write_table(self, self.t, observation, self.names)

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

    def help(self) -> None:
        t = self.t
        for line in (
            t.gettext("cli", "Commands:"),
            t.gettext("cli", "  draw, {draw_key}            draw the top card of the stock"),
            t.gettext("cli", "  take, {take_key}            take the latest discard"),
            t.gettext("cli", "  5c, or 3           discard a card: its code or its position in your hand"),
            t.gettext("cli",
                      "  declare [5c], {declare_key}    declare checki after your discard, naming the wait"),
            t.gettext("cli", "  pass, {pass_key}            do not declare now"),
            t.gettext("cli", "  hint, {hint_key}            what the hard AI would do now, and why"),
            t.gettext("cli", "  rules              show the rules"),
            t.gettext("cli", "  help, ?            show this help"),
            t.gettext("cli", "  quit, q            stop playing"),
            t.gettext("cli", "Card codes: 1c–9c Coins, 1s–9s Strings, 1m–9m Myriads, ot Old Thousand, "
                             "rf Red Flower, wf White Flower."),
        ):
            self.write(line.format(**self.keys))
        free = [letter for action, letter in ENGLISH_LETTERS.items() if self.letters[action] != letter]
        if free:  # the English letters of the actions whose own letter differs
            self.write(t.gettext("cli", "  The English letters work too when the language's own letter "
                                        "means nothing at that moment: {letters}.").format(
                letters=", ".join(f"{letter} ({t.gettext('cli', COMMANDS[action][0])})"
                                  for action, letter in ENGLISH_LETTERS.items() if letter in free)))

    def rules(self, observation: Observation) -> None:
        """The rules (a screenful at a time in a terminal), then the table again."""
        from kowah.rendering import render_rules

        t = self.t
        text = render_rules(t, "text")
        more = t.gettext("cli", "Enter: more of the rules; q: back to the game")
        self.page(text, more, lambda answer: self.command(answer) == "quit" if answer else False)
        self.write(self.style(t.gettext("cli", "Back to the game."), BOLD))
        self.show(observation)

    def prompt_for(self, observation: Observation, legal: Sequence[Action]) -> str:
        t = self.t
        kinds = {action.kind for action in legal}
        if ActionKind.DECLARE in kinds:
            return t.gettext(
                "cli", "Your hand is ready! Declare checki (declare {waits}) or pass ({pass_key})?"
            ).format(waits=self.waits_of(legal), **self.keys)
        if observation.phase is Phase.START:
            latest = observation.latest_discard
            if ActionKind.TAKE in kinds and latest is not None:
                return t.gettext("cli", "Your turn: draw ({draw_key}) or take {card} ({take_key})?").format(
                    card=str(latest), **self.keys)
            return t.gettext("cli", "Your turn: draw ({draw_key})?").format(**self.keys)
        return t.gettext("cli", "Discard which card (code or position 1–{count})?").format(
            count=len(observation.hand))

    def waits_of(self, legal: Sequence[Action]) -> str:
        waits = [str(action.card) for action in legal if action.kind is ActionKind.DECLARE]
        return self.t.format_list(waits, style="or")

    def parse(self, text: str, observation: Observation, legal: Sequence[Action]) -> Action | str | None:
        """The action the person typed, a command name (help, rules, quit), or ``None``.

        A position outside the hand raises :class:`_Typo`.
        """
        words = text.replace(",", " ").split()
        if not words:
            return None
        seat = HUMAN
        first = words[0]
        command = self._command_now(first, len(words) > 1, legal)
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
        if command in ("help", "rules", "quit", "hint"):
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
        if command == "discard" and not rest:
            return "discard"
        if command in ("declare", "yes"):
            if len(rest) == 1:
                card = self.card_at(rest[0], observation)
                return Action.declare(seat, card) if card is not None else None
            if not rest:
                return "declare"
        return None

    def _command_now(self, word: str, argument: bool, legal: Sequence[Action]) -> str | None:
        """The command *word* names at this prompt: a letter of the person's language
        (:attr:`letters`) when that action is possible now, else what it means in English or as
        a word (:meth:`command`), so that the English letters work too."""
        english = self.command(word)
        own = self.own_letters.get(_fold(word))
        if own is None or own == english or english is None:
            return own or english
        kinds = {action.kind for action in legal}
        possible = {"draw": ActionKind.DRAW in kinds and not argument,
                    "take": ActionKind.TAKE in kinds and not argument,
                    "pass": ActionKind.PASS in kinds and not argument,
                    "declare": ActionKind.DECLARE in kinds,
                    "hint": not argument}
        return own if possible.get(own, False) else english

    def card_at(self, token: str, observation: Observation) -> Card | None:
        """A card code (R3), or the 1-based position of a card in the hand.

        Only ASCII digits are a position (``²`` and ``①`` are digits to Python, not here);
        a position outside the hand raises :class:`_Typo` naming the range.
        """
        if token.isascii() and token.isdigit():
            count = len(observation.hand)
            index = int(token) - 1 if len(token) <= 3 else -1  # 5,000 digits: out of range
            if not 0 <= index < count:
                raise _Typo(self.t.gettext("cli", _NO_POSITION).format(
                    position=printable(token, 12), count=count))
            return observation.hand[index]
        try:
            card = Card.parse(token)
        except KowahError:
            return None
        if card not in observation.rules.pack:  # a money-pack deal (V1) has them all
            raise _Typo(self.t.gettext("cli", _NOT_IN_DECK).format(card=str(card),
                                                                    name=self.t.card_name(card)))
        return card

    # -- the deal --

    def human_turn(self, observation: Observation) -> None:
        t = self.t
        legal = observation.legal_actions
        deal = self.deal
        if len(legal) == 1:  # a locked hand's draw and discard, the opening draw
            self.forced(observation, legal[0])
            return
        declaring = any(action.kind is ActionKind.DECLARE for action in legal)
        if self.table_shown and (declaring or (observation.phase is Phase.DISCARD
                                               and observation.turn == HUMAN)):
            self.write(t.gettext("cli", "Your hand: {cards}").format(cards=self.hand_line(observation.hand)))
        else:
            self.show(observation)
        while True:
            text = self.ask(self.prompt_for(observation, legal))
            if not text:
                continue
            try:
                choice = self.parse(text, observation, legal)
            except _Typo as typo:
                self.problem(str(typo))
                continue
            if isinstance(choice, str) and self.answer(choice, observation):
                continue
            if choice == "discard":
                if any(action.kind is ActionKind.DISCARD for action in legal):
                    self.problem(t.gettext("cli", _WHICH_CARD))
                else:  # why not now: draw first (R10), or the declaring window (R11)
                    self.problem(self.why_not(Action.discard(HUMAN, observation.hand[0]), legal))
                continue
            if choice == "declare":
                if not any(action.kind is ActionKind.DECLARE for action in legal):
                    self.problem(t.gettext("cli", YOUR_REFUSALS[Reason.NOT_DECLARING]))
                    continue
                choice = self.choose_wait(observation, legal)
            if not isinstance(choice, Action):
                self.problem(t.gettext(
                    "cli", "I did not understand “{text}”. Type help or ? for the commands."
                ).format(text=printable(text, _ECHO_LIMIT)))
                continue
            if choice not in legal:
                self.problem(self.why_not(choice, legal))
                continue
            deal.apply(choice)
            if choice.kind is ActionKind.DECLARE:
                self.narrate(deal.observation(HUMAN))
                self.write(self.style(t.gettext(
                    "cli", "Your hand is locked; your turns now play themselves."), BOLD))
            return

    def answer(self, command: str, observation: Observation) -> bool:
        """Carry out a command that is not a move (help, rules, hint, quit) at any prompt;
        whether *command* was one."""
        if command == "quit":
            raise Quit
        if command == "help":
            self.help()
        elif command == "rules":
            self.rules(observation)
        elif command == "hint":
            for line in describe(advise(observation), self.t):
                self.write("  " + line)
        else:
            return False
        return True

    def forced(self, observation: Observation, action: Action) -> None:
        """Apply the one action the person has (R10's opening draw, R12's locked turns)."""
        t = self.t
        if action.kind is ActionKind.DRAW and not self.deal.history:
            self.write(t.gettext("cli", "On the opening turn, you must draw from the stock (no card "
                                        "has been discarded yet), so you draw at once."))
        self.deal.apply(action)
        if action.kind is ActionKind.DISCARD:  # a locked turn is over: show where the deal stands
            self.status_due = True

    def choose_wait(self, observation: Observation, legal: Sequence[Action]) -> Action:
        """The declaration the person picks when the hand offers several waits (R8), or a pass.

        The commands that are not moves (help, rules, hint, quit) work here as at every prompt.
        """
        t = self.t
        declares = [action for action in legal if action.kind is ActionKind.DECLARE]
        if len(declares) == 1:
            return declares[0]
        waits = self.waits_of(declares)
        while True:
            question = t.gettext("cli", "Which pair will you expose: {waits}? ({pass_key}: pass)")
            text = self.ask(question.format(waits=waits, **self.keys))
            if not text:
                continue
            for action in declares:
                if _fold(text) == str(action.card):
                    return action
            command = self._command_now(text, False, [Action.pass_(HUMAN)])
            if command in ("pass", "no"):
                return Action.pass_(HUMAN)
            if command is not None and self.answer(command, observation):
                continue
            self.problem(t.gettext("cli", "Choose {waits}, or type {pass_key} to pass.").format(
                waits=waits, **self.keys))

    def why_not(self, action: Action, legal: Sequence[Action]) -> str:
        """Why an action the person typed is not legal now, in their language, said to them."""
        if any(other.kind is ActionKind.DECLARE for other in legal) and action.kind in (
                ActionKind.DRAW, ActionKind.TAKE, ActionKind.DISCARD):
            # The declaring window (R11): the choice is declaring or not, not the next turn.
            return self.t.gettext(
                "cli", "You have just discarded and your hand is ready (checki). Declare checki now "
                       "({declare_key}, or the wait: {waits}) to lock your hand and wait for that card, "
                       "or pass ({pass_key}) to keep playing freely; you can draw or take a card again "
                       "on your next turn."
            ).format(waits=self.waits_of(legal), **self.keys)
        refusal = self.deal.why_illegal(action)
        if refusal is None:  # pragma: no cover - only refused actions are explained
            return self.t.gettext("cli", "That is not possible now.")
        mine = YOUR_REFUSALS.get(refusal.reason)
        if mine is None:
            return self.t.error(IllegalActionError(refusal))
        return self.t.gettext("cli", mine).format(**self._as_codes(refusal.params), **self.keys)

    def _as_codes(self, params: Mapping[str, object]) -> dict[str, object]:
        """A refusal's fields as the terminal writes them: cards by their codes, a tuple of
        cards as a list of codes ("rf or 5c"), never as Python writes them."""
        out: dict[str, object] = {}
        for key, value in params.items():
            if isinstance(value, Card):
                value = str(value)
            elif isinstance(value, tuple) and all(isinstance(item, Card) for item in value):
                value = self.t.format_list([str(item) for item in value], style="or")
            out[key] = value
        return out

    def end(self, outcome: Outcome) -> None:
        """Tell how the deal ended (with the multiplier only, R15) and show the winning hand."""
        t = self.t
        self.write()
        winner, card = outcome.winner, outcome.card
        line = t.outcome(outcome, viewer=HUMAN)
        self.write(self.style(line, BOLD))
        mine = list(self.deal.hand(HUMAN))
        if winner is not None and card is not None:
            shown = self.winning_hand(winner, card)
            if winner == HUMAN:
                self.write(t.gettext("cli", "Your winning hand: {cards}").format(cards=shown))
                return
            self.write(t.gettext("cli", "You lose this deal."))
            self.write(t.gettext("cli", "Seat {seat}'s winning hand: {cards}").format(
                seat=winner, cards=shown))
            if outcome.by == "draw-claim" and len(mine) > 8:
                mine.remove(card)  # your stock draw was claimed: it is in the winner's hand now
        self.write(t.gettext("cli", "Your hand: {cards}").format(cards=self.hand_line(mine)))

    def winning_hand(self, seat: int, card: Card) -> str:
        """The winner's eight cards as they won: the pair, the two triples, and ``+`` the card."""
        split = self.deal.winning_split()
        if split is None:  # pragma: no cover - a won deal always has its split
            return self.cards(sorted(self.deal.hand(seat)))
        groups = [split.pair, *split.triples]
        return " | ".join(self.cards(group) for group in groups) + "  + " + self.style(
            self.card(card), BOLD)

    def play(self) -> None:
        deal = self.deal
        while not deal.is_over:
            seat = deal.actor
            observation = deal.observation(HUMAN)
            self.narrate(observation)
            if self.status_due:
                self.status_due = False
                self.show(observation)
            if seat == HUMAN:
                self.human_turn(observation)
                continue
            player = self.players[seat]
            assert player is not None
            seen = deal.observation(seat)
            deal.apply(player.choose(seen, seen.legal_actions))
        self.narrate(deal.observation(HUMAN))


def play_in_terminal(translator: Translator, *, seed: int | None, opponents: str | OwnPlayer,
                     record_path: Path | None, stdin: TextIO, stdout: TextIO, color: bool, pace: float,
                     width: int | None = None, rules: Rules = KOWAH_RULES) -> int:
    """Play one deal at the terminal: the person at seat 0, two *opponents* AIs at seats 1 and 2
    (a level's name, or a player of one's own, :func:`kowah.plugins.load_player`), under *rules*.

    *seed* fixes the shuffle, the first seat and the AIs' choices (``None``: fresh each time).
    At the end the outcome is shown with its multiplier (R15) and the game record is saved to
    *record_path*, or the person at a terminal is offered to save it. Lines are wrapped to
    *width* columns (default: the terminal's, or 80). Returns the exit code: 0 when the deal
    ended or the person quit, :data:`EXIT_INTERRUPTED` (130) when they left with Ctrl-C, 1
    when the record could not be saved.
    """
    t = translator
    rng = random.Random(seed)
    deal = Deal.shuffled(rng, rules)
    strength = t.level_name(opponents) if isinstance(opponents, str) else printable(opponents.name, 60)
    names = ["", strength, strength]
    players: list[Player | None] = [None] + [make_seat(opponents, random.Random(rng.getrandbits(64)))
                                              for _ in range(SEATS - 1)]
    table = _Table(t, deal, players, names, stdin, stdout, color, pace, width)
    code = 0
    quit_early = False
    try:
        try:
            table.write(table.style(t.gettext("cli", "Kowah: you are seat 0, against two AI players "
                                                     "(strength: {player}). Type help or ? for the "
                                                     "commands.").format(player=strength),
                                    BOLD))
            if deal.first == HUMAN:
                table.write(t.gettext("cli", "You play first."))
            else:
                table.write(t.gettext("cli", "Seat {seat} plays first.").format(seat=deal.first))
            table.play()
        except KeyboardInterrupt:  # Ctrl-C between prompts (an AI's pause, the output)
            table.stdout.write("\n")
            raise Interrupted from None
    except Quit as leaving:
        quit_early = True
        if isinstance(leaving, Interrupted):
            code = EXIT_INTERRUPTED
        table.write(t.gettext("cli", "You leave the table."))
    except BrokenPipeError:  # the output was closed (e.g. piped into head): stop quietly
        return 1
    outcome = deal.outcome
    if outcome is not None:
        table.end(outcome)
    saved = _save(table, deal, record_path, ask=not quit_early and table.echo_free)
    return code or saved


def _save(table: _Table, deal: Deal, record_path: Path | None, ask: bool) -> int:
    """Save the record to *record_path*, or ask for a file name (again after a failure)."""
    t = table.t
    if record_path is not None:
        return _save_to(table, deal, record_path)
    while ask:
        try:
            answer = table.ask(t.gettext(
                "cli", "Save the game record? Type a file name, or press Enter to skip:"))
        except Interrupted:  # Ctrl-C: leave without saving, as interrupted
            return EXIT_INTERRUPTED
        except Quit:
            return 0
        if not answer:
            return 0
        try:
            path = Path(answer).expanduser()
        except RuntimeError:  # "~nobody": a home folder that cannot be found
            path = Path(answer)
        if _save_to(table, deal, path) == 0:
            return 0
    return 0


def _save_to(table: _Table, deal: Deal, path: Path) -> int:
    t = table.t
    try:
        write_record(path, Record.from_deal(deal))
    except (OSError, ValueError) as error:  # ValueError: a NUL character in the name
        table.problem(t.gettext("cli", "Could not save the record to {path}: {reason}").format(
            path=printable(str(path), 200), reason=os_reason(t, error)))
        return 1
    table.write(t.gettext("cli", "Record saved to {path}.").format(path=printable(str(path), 200)))
    return 0
