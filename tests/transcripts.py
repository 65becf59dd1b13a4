"""Golden transcripts of the terminal game: one whole piped deal per language.

``tests/golden/transcript-LANG.txt`` holds what ``kowah play`` prints for the fixed seed
:data:`SEED`, with a scripted person at seat 0 whose choices are a ``normal`` AI's (so the
deal reaches a declaration, locked turns and an end). The test compares; after a change of
the game's text, rewrite the files with::

    python3 dev.py goldens

and read the diff before committing it.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from pathlib import Path

from kowah import Action, ActionKind, Deal
from kowah.i18n import LANGUAGES, translator
from kowah.keys import terminal_letters
from kowah.players import make_player
from kowah.terminal import play_in_terminal

GOLDEN = Path(__file__).resolve().parent / "golden"
#: The deal of the transcripts: the person declares, plays locked turns, and the deal ends.
SEED = 16
OPPONENTS = "normal"
WIDTH = 80


def typed(action: Action, language: str = "en") -> str:
    """What a person types for *action* at the table's prompts: the letters the prompts of
    *language* show (:func:`kowah.keys.terminal_letters`)."""
    letters = terminal_letters(translator(language))
    if action.kind is ActionKind.DRAW:
        return letters["draw"]
    if action.kind is ActionKind.TAKE:
        return letters["take"]
    if action.kind is ActionKind.PASS:
        return letters["pass"]
    if action.kind is ActionKind.DECLARE:
        return f"{letters['declare']} {action.card}"
    return str(action.card)


def script(seed: int, opponents: str = OPPONENTS, person: str = "normal",
           language: str = "en", until: Callable[[list[str]], bool] | None = None) -> tuple[str, Deal]:
    """The lines a person types in the deal of *seed* when choosing as a *person* AI would.

    The deal and the opponents are built exactly as :func:`kowah.terminal.play_in_terminal`
    builds them, so the typed lines fit the game the table plays. Also returns the deal. With
    *until*, the script stops at the person's first turn whose waits to declare (their codes,
    perhaps none) satisfy it: the deal is returned there, unless it ended first.
    """
    rng = random.Random(seed)
    deal = Deal.shuffled(rng)
    players = [make_player(person, random.Random(seed ^ 0x5EED))] + [
        make_player(opponents, random.Random(rng.getrandbits(64))) for _ in range(2)]
    lines = []
    while not deal.is_over:
        seat = deal.to_move()[0]
        legal = deal.legal_actions(seat)
        if seat == 0 and until is not None and until(
                [str(action.card) for action in legal if action.kind is ActionKind.DECLARE]):
            break
        if seat == 0 and len(legal) == 1:  # the table applies a forced action itself
            deal.apply(legal[0])
            continue
        observation = deal.observation(seat)
        action = players[seat].choose(observation, observation.legal_actions)
        if seat == 0:
            lines.append(typed(action, language))
        deal.apply(action)
    return "".join(line + "\n" for line in lines), deal


def transcript(language: str, seed: int = SEED) -> str:
    """The game's whole output for *seed* in *language*, piped, :data:`WIDTH` columns."""
    text, _ = script(seed, language=language)
    out = io.StringIO()
    play_in_terminal(translator(language, codes=True), seed=seed, opponents=OPPONENTS, record_path=None,
                     stdin=io.StringIO("help\nhint\n" + text), stdout=out, color=False, pace=0,
                     width=WIDTH)
    return out.getvalue()


def main(argv: list[str]) -> int:
    for language in LANGUAGES:
        path = GOLDEN / f"transcript-{language}.txt"
        path.write_text(transcript(language), encoding="utf-8")
        print(f"wrote {path.relative_to(GOLDEN.parent.parent)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
