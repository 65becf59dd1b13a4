"""The review of a deal: its record in, every step with all hands face up and the coach's
advice out (``POST /api/review``).

The review reads the record only, never a game of the store: whoever holds a record (the
page's "Download record", a friend's file) may step through it. Each step is the table after
one action of the record, as every seat would see it with all hands face up; at each decision
of the seat reviewed (the person's), the coach (:func:`kowah.coach.advise`, from what that seat
could see then) says what it would have done and how far from ready each choice left the hand.

>>> from kowah import Deal, Record
>>> deal = Deal.shuffled(seed=5)
>>> while not deal.is_over:
...     _ = deal.apply(deal.legal_actions()[0])
>>> review = review_of(Record.from_deal(deal), translator("en"), seat=0)
>>> len(review["steps"]) >= len(deal.history) + 1, review["steps"][0]["stock"]
(True, 96)
>>> decision = next(step for step in review["steps"] if step["coach"])
>>> decision["seat"], "agrees" in decision["coach"]
(0, True)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kowah.actions import SEATS, Action, ActionKind
from kowah.cards import Card
from kowah.coach import Advice, advise
from kowah.deal import Deal
from kowah.errors import N_, KowahError, RecordError
from kowah.i18n import Translator, translator
from kowah.record import Record
from kowah.web.ai_players import offered
from kowah.web.answers import answer
from kowah.web.language import language, translator_for
from kowah.web.problems import Problem
from kowah.web.said import review_sentences
from kowah.web.text import ai_seat

if TYPE_CHECKING:  # the endpoint's only: the static site's Worker makes reviews without Starlette
    from starlette.requests import Request
    from starlette.responses import Response

__all__ = ["FORMAT", "MAX_BODY", "bad_record", "review", "review_of"]

#: The answer's format.
FORMAT = "kowah-review/1"
#: The largest request body (bytes): a record of the longest legal deal fits with room to spare.
MAX_BODY = 256 * 1024

_REVIEW = {
    "dealt": N_("web", "The cards are dealt: {name} plays first."),
    "dealt-you": N_("web", "The cards are dealt: you play first."),
    "passed": N_("web", "{name} does not declare checki."),
    "you-passed": N_("web", "You do not declare checki."),
    "yours": N_("web", "Your choice: {action}."),
    "agrees": N_("web", "The coach would have done the same."),
    "would": N_("web", "The coach would have chosen: {action}."),
    "takes": N_("web", "Taking {card} would have brought your hand closer to ready."),
    "no-take": N_("web", "Taking {card} would not have brought your hand closer to ready."),
    "bad-record": N_("web", "This record cannot be reviewed: {problem}"),
}
# What a seat did or could do, as the coach's lines name it (context "web").
_ACTIONS = {
    "draw": N_("web", "draw from the stock"),
    "take": N_("web", "take {card}"),
    "discard": N_("web", "discard {card}"),
    "declare": N_("web", "declare checki (wait: {card})"),
    "pass": N_("web", "pass (no checki)"),
}


def _codes(cards: Sequence[Card]) -> list[str]:
    return [str(card) for card in cards]


def _board(deal: Deal) -> dict[str, Any]:
    """The table with every hand face up."""
    return {
        "hands": [_codes(sorted(deal.hand(seat))) for seat in range(SEATS)],
        "hand_sizes": [len(deal.hand(seat)) for seat in range(SEATS)],
        "stock": deal.stock_count,
        "discards": [_codes(deal.discards(seat)) for seat in range(SEATS)],
        "latest_discard": None if deal.latest_discard is None else str(deal.latest_discard),
        "declared": [None if (wait := deal.declared_wait(seat)) is None else str(wait)
                     for seat in range(SEATS)],
        "public_draws": [[seat, str(card)] for seat, card in deal.observation(0).public_draws],
        "turn": deal.turn,
        "to_move": list(deal.to_move()),
        "outcome": None if deal.outcome is None else dict(deal.outcome.as_dict()),
    }


def _action_words(t: Translator, action: Action, latest: Card | None) -> str:
    card = action.card if action.kind is not ActionKind.TAKE else latest
    text = t.gettext("web", _ACTIONS[action.kind.value])
    if card is None:
        return text
    # The wait follows a colon (its name alone); a card taken or discarded is the verb's object.
    return text.format(card=t.card(card, "name" if action.kind is ActionKind.DECLARE else "object"))


def _choices(t: Translator, advice: Advice, did: Action) -> list[dict[str, Any]]:
    """Each discard the coach weighed: how far from ready it left the hand, and the lines."""
    choices = []
    for option in advice.discards:
        name = t.card(option.card)
        # The coach's own sentences (kowah.coach.describe), so that both say it alike.
        if option.feeds:
            text = t.gettext("coach", "{card}: a declared player waits for this card and would win at "
                                      "once.").format(card=name)
        elif option.distance == 0:
            waits = t.format_list([t.card(wait.card) for wait in option.waits])
            text = t.gettext("coach", "{card}: ready; waits: {waits}.").format(card=name, waits=waits)
        else:
            text = t.ngettext("web", "{card}: {count} card from ready.", "{card}: {count} cards from ready.",
                              option.distance).format(card=name, count=option.distance)
        choices.append({**option.as_dict(), "chosen": did.card == option.card, "text": text})
    for wait in advice.waits:
        choices.append({"card": str(wait.card), "live": wait.live, "best": False,
                        "chosen": did.kind is ActionKind.DECLARE and did.card == wait.card,
                        "text": t.ngettext("web", "{card}: {count} copy left.",
                                           "{card}: {count} copies left.",
                                           wait.live).format(card=t.card(wait.card), count=wait.live)})
    return choices


def _coach(t: Translator, advice: Advice, did: Action, latest: Card | None) -> dict[str, Any]:
    """What the coach says of one decision (*advice* was given before *did* was taken)."""
    advised = advice.action
    agrees = advised == did or (advised is not None and advised.kind is did.kind is ActionKind.DECLARE
                                and did.card is None)
    lines = [t.gettext("web", _REVIEW["yours"]).format(action=_action_words(t, did, latest))]
    if agrees or advised is None:
        lines.append(t.gettext("web", _REVIEW["agrees"]))
    else:
        lines.append(t.gettext("web", _REVIEW["would"]).format(action=_action_words(t, advised, latest)))
    if advice.take is not None:
        key = "takes" if advice.take.improves else "no-take"
        lines.append(t.gettext("web", _REVIEW[key]).format(card=t.card(advice.take.card, "object")))
    if not advice.discards and advice.distance:
        lines.append(t.ngettext("web", "Your hand was {count} card from ready.",
                                "Your hand was {count} cards from ready.", advice.distance).format(
            count=advice.distance))
    return {"did": dict(did.to_dict()), "advised": None if advised is None else dict(advised.to_dict()),
            "agrees": agrees, "distance": advice.distance, "lines": lines,
            "choices": _choices(t, advice, did)}


def _people(tags: Mapping[str, str]) -> tuple[list[str | None], list[str | None]]:
    """The seats' given names from a record's tags (``seat0``…), ``None`` where there is none,
    and the AI level of each seat an AI played (``None`` for the others).

    The table writes each seat's English label there: a person's name, "Seat 2" for a person
    without one, and "Seat 2 · AI (normal)" (or "Bo · AI (normal)") for an AI's seat; the
    review tells those in its own language.
    """
    english = translator("en")
    names: list[str | None] = []
    levels: list[str | None] = []
    for index in range(SEATS):
        tag = tags.get(f"seat{index}")
        name = tag.strip()[:60] if isinstance(tag, str) else ""
        level = None
        for strength in offered():
            suffix = ai_seat(english, "", strength)  # " · AI (normal)"
            if name.endswith(suffix):
                name, level = name.removesuffix(suffix), strength
                break
        names.append(name if name and name != english.seat_name(index) else None)
        levels.append(level)
    return names, levels


def _labels(t: Translator, seat: int, people: list[str | None], levels: list[str | None]) -> list[str]:
    """How the review names each seat: "You", a name or "Seat 2", with its AI level."""
    labels = []
    for index in range(SEATS):
        label = t.seat_name(index, viewer=seat, names=people)
        level = levels[index]
        if level is not None and index != seat:
            label = ai_seat(t, label, level)
        labels.append(label)
    return labels


def review_of(record: Record, t: Translator, seat: int = 0,
              tags: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The review of *record* in *t*'s language, coaching *seat*'s decisions (see the module).

    Raises :class:`~kowah.errors.RecordError` for a record whose actions are not legal.
    """
    people, levels = _people(tags or {})
    # The others as a sentence's subject ("Il posto 1", "Bo"); the viewer has sentences of their own.
    names = [t.seat_subject(index, people) for index in range(SEATS)]
    record.replay()  # a RecordError names the first illegal action by its index
    deal = record.replay(upto=0)
    first = deal.first
    dealt = t.gettext("web", _REVIEW["dealt-you" if first == seat else "dealt"]).format(name=names[first])
    steps: list[dict[str, Any]] = [{"index": 0, "seat": None, "action": None, "coach": None,
                                    "events": [], "text": [dealt], **_board(deal)}]
    pending: list[Action | None] = [*record.actions, *([None] if record.passed else [])]
    for entry in pending:
        if entry is None:  # the record's last declaring window was declined (``passed``)
            mover = deal.declaring_seat
            if mover is None:
                break
            entry = Action.pass_(mover)
        action = entry
        # An open declaring window that the next action skips was declined: show it as a pass.
        window = deal.declaring_seat
        if (window is not None and action.kind is not ActionKind.PASS
                and not (action.seat == window and action.kind is ActionKind.DECLARE)):
            steps.append(_step(t, deal, Action.pass_(window), seat, names, people, len(steps)))
        steps.append(_step(t, deal, action, seat, names, people, len(steps)))
    outcome = deal.outcome
    labels = _labels(t, seat, people, levels)
    return {"format": FORMAT, "lang": t.language, "seat": seat, "players": labels,
            "said": review_sentences(t, labels, viewer=seat),
            "first": first, "outcome": None if outcome is None else dict(outcome.as_dict()),
            "outcome_text": None if outcome is None else t.outcome(outcome, viewer=seat, names=people),
            "steps": steps}


def _step(t: Translator, deal: Deal, action: Action, seat: int, names: list[str],
          people: list[str | None], index: int) -> dict[str, Any]:
    """Apply *action* to *deal* and describe the step (with advice when *seat* decided)."""
    advice = advise(deal.observation(seat)) if action.seat == seat else None
    latest = deal.latest_discard
    events = deal.apply(action)
    did = deal.history[-1] if action.kind is not ActionKind.PASS else action
    if action.kind is ActionKind.PASS:
        key = "you-passed" if action.seat == seat else "passed"
        texts = [t.gettext("web", _REVIEW[key]).format(name=names[action.seat])]
    else:
        texts = [t.event(event, viewer=seat, names=people) for event in events]
    return {"index": index, "seat": action.seat, "action": dict(did.to_dict()),
            "events": [{"kind": event.kind.value, "seat": event.seat,
                        "card": None if event.card is None else str(event.card)} for event in events],
            "text": [text for text in texts if text],
            "coach": None if advice is None or advice.action is None else _coach(t, advice, did, latest),
            **_board(deal)}


def _words(request: Request, data: Mapping[str, Any]) -> Translator:
    """The answer's words: the request's language (``?lang=``, else the body's ``lang``, the
    cookie, ``Accept-Language``), with card codes after the names for ``?codes=1``."""
    lang = data.get("lang") if isinstance(data.get("lang"), str) else None
    return translator(language(request, lang), codes=request.query_params.get("codes") == "1")


def bad_record(t: Translator, problem: str, **extra: Any) -> Problem:
    """The ``bad-record`` answer: the record cannot be reviewed, for *problem*."""
    message = t.gettext("web", _REVIEW["bad-record"]).format(problem=problem)
    return Problem(400, "bad-record", message, **extra)


def _bad_record(t: Translator, problem: str, **extra: Any) -> Response:
    return bad_record(t, problem, **extra).response()


async def review(request: Request) -> Response:
    """``POST /api/review``: ``{"record": {…}, "seat": 0}`` in, the review out (see the module)."""
    first = translator_for(request)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return Problem.of(first, 413, "too-large", limit=MAX_BODY).response()
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        return Problem.of(first, 400, "bad-json").response()
    if not isinstance(data, dict):
        return Problem.of(first, 400, "not-an-object").response()
    t = _words(request, data)
    seat = data.get("seat", 0)
    if type(seat) is not int or not 0 <= seat < SEATS:
        return Problem.field(t, "seat", "seat").response()
    raw = data.get("record")
    tags = raw.get("tags") if isinstance(raw, dict) else None
    try:
        record = Record.from_dict(raw)
    except KowahError as error:
        return _bad_record(t, t.error(error))

    def work() -> dict[str, Any]:
        return review_of(record, t, seat, tags if isinstance(tags, dict) else None)

    try:  # in the application's game threads (the lifespan's: anyio is not in the Worker)
        return answer(await request.state.threads.run(work))
    except RecordError as error:
        return _bad_record(t, t.error(error), action=error.action)


def __getattr__(name: str) -> Any:
    """``ROUTES``, the review's route for the application's route list (made on first use, so
    that this module imports without Starlette)."""
    if name == "ROUTES":
        from starlette.routing import Route

        return [Route("/api/review", review, methods=["POST"])]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
