"""Golden transcripts of whole deals, per language, as every front end tells them.

``tests/golden/deals-LANG.txt`` holds the whole text of the deals of :data:`SEEDS` in one
language, each told three times:

* as the terminal shows it (``kowah play``, piped, a person at seat 0 choosing as a ``normal``
  AI would: :func:`transcripts.transcript`);
* as the browser page's texts show it to the person at seat 0: every sentence of the state and
  event answers of :class:`kowah.web.game.Game` (the seats' names, each event's sentence, the
  outcome) and the coach's lines at each of the person's decisions;
* as the review tells it (:func:`kowah.web.review.review_of` of the deal's record): each step's
  sentences and the coach's lines and choices.

Every sentence a player reads in a deal is therefore in one file per language, so a change of
any sentence shows in a diff someone reads. The test compares; after a change of the game's
text, rewrite the files with::

    python3 dev.py goldens

and read the diff before committing it.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from transcripts import transcript

from kowah import ActionKind, Record
from kowah.i18n import LANGUAGES, translator
from kowah.players import make_player
from kowah.web.game import Game
from kowah.web.review import review_of

GOLDEN = Path(__file__).resolve().parent / "golden"
#: The deals: one the person wins by a self-draw after declaring (16), one lost to a claim,
#: one an AI wins by self-draw (chosen so that the three tell most kinds of sentence).
SEEDS = (16, 3, 5)
#: The keys of the state answer whose strings a person reads (the others are codes and numbers).
_TEXT_KEYS = ("players", "outcome_text", "text", "texts", "label", "labels", "lines", "status_text")


def _texts(value: Any, key: str = "") -> Iterator[str]:
    """The human-facing strings in a JSON-like *value*, in order (by :data:`_TEXT_KEYS`)."""
    if isinstance(value, Mapping):
        for name, item in value.items():
            if name in ("view", "events"):
                continue
            yield from _texts(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item, key)
    elif isinstance(value, str) and key in _TEXT_KEYS:
        yield value


def page(language: str, seed: int) -> tuple[list[str], Game]:
    """The page's texts for the person at seat 0 in the deal of *seed*, and the game played."""
    game = Game.new(seed=seed, opponents="normal", lang=language, game_id=f"golden-{seed:012d}",
                    now=0.0)
    person = make_player("normal", random.Random(seed ^ 0x5EED))
    state = game.state(seat=0, now=0.0)
    lines = [f"[players] {' | '.join(state['players'])}"]
    told = 0
    while True:
        state = game.state(seat=0, since=told, now=0.0)
        for event in state["events"]:
            lines.append(f"  {event['text']}")
        told = state["version"]
        extra = list(_texts({k: v for k, v in state.items() if k != "players"}))
        if game.is_over:
            lines.extend(f"[end] {text}" for text in extra)
            break
        legal = game.legal(0)
        hint = game.hint(0)
        lines.extend(f"[hint] {line}" for line in hint["lines"])
        view = game.deal.observation(0)
        action = person.choose(view, legal)
        if len(legal) > 1 or action.kind is not ActionKind.DRAW:
            lines.append(f"[you] {action.kind.value}{'' if action.card is None else ' ' + str(action.card)}")
        game.act(action, now=0.0)
    return lines, game


def review(language: str, game: Game) -> list[str]:
    """The review of *game*'s finished deal for seat 0, as lines."""
    record = Record.from_deal(game.deal, tags=game.tags())
    told = review_of(record, translator(language), seat=0, tags=record.tags)
    lines = [f"[players] {' | '.join(told['players'])}"]
    for step in told["steps"]:
        lines.extend(f"{step['index']:3} {text}" for text in step["text"])
        coach = step["coach"]
        if coach:
            lines.extend(f"    [coach] {line}" for line in coach["lines"])
            lines.extend(f"    [{'x' if choice['chosen'] else ' '}] {choice['text']}"
                         for choice in coach["choices"])
    if told["outcome_text"]:
        lines.append(f"[end] {told['outcome_text']}")
    return lines


def deals(language: str) -> str:
    """The whole text of the deals of :data:`SEEDS` in *language* (see the module)."""
    parts = [f"# Kowah, {language}: the deals of seeds {', '.join(map(str, SEEDS))}, as the terminal, "
             "the page and the review tell them\n"]
    for number, seed in enumerate(SEEDS, 1):
        told, game = page(language, seed)
        parts.append(f"\n## Deal {number} (seed {seed}): terminal\n\n{transcript(language, seed)}")
        parts.append(f"\n## Deal {number} (seed {seed}): page, seat 0\n\n" + "\n".join(told) + "\n")
        parts.append(f"\n## Deal {number} (seed {seed}): review, seat 0\n\n"
                     + "\n".join(review(language, game)) + "\n")
    return "".join(parts)


def main(argv: list[str]) -> int:
    for language in LANGUAGES:
        path = GOLDEN / f"deals-{language}.txt"
        path.write_text(deals(language), encoding="utf-8")
        print(f"wrote {path.relative_to(GOLDEN.parent.parent)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
