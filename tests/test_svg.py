"""Card pictures (kowah.svg): one distinct, valid, deterministic design per card kind."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest

from kowah import svg
from kowah.cards import Card, parse_cards
from kowah.errors import KowahError, KowahTypeError
from kowah.i18n import LANGUAGES, translator

NS = "{http://www.w3.org/2000/svg}"


def _shapes(picture: str) -> set[str]:
    """The kinds of element a picture draws with (circle, rect, path, …)."""
    return {element.tag.removeprefix(NS) for element in ET.fromstring(picture).iter()}


@pytest.mark.parametrize("kind", list(Card))
def test_every_card_is_valid_xml_with_its_title(kind: Card) -> None:
    picture = svg.card(kind)
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox") == "0 0 60 84"
    assert root.findtext(f"{NS}title") == svg.english_name(kind)
    assert root.get("data-card") == kind.code
    assert svg.card(kind) == picture  # deterministic


def test_all_33_kinds_and_the_back_are_distinct() -> None:
    pictures = [svg.card(kind) for kind in Card] + [svg.back()]
    assert len(set(pictures)) == 34
    # Distinct even without their titles and codes: the drawings themselves differ.
    drawings = {re.sub(r"<title>.*?</title>|aria-label=\"[^\"]*\"|data-card=\"\w+\"", "", picture)
                for picture in pictures}
    assert len(drawings) == 34


def test_the_suit_is_shown_by_shape_not_colour_alone() -> None:
    # Coins are circles with a square hole, Strings rounded bars, Myriads lozenge paths: the
    # same rank in the three suits draws with different shapes, whatever the colours.
    coins, strings, myriads = (svg.card(card) for card in parse_cards("5c 5s 5m"))
    def centre(picture: str) -> str:
        return re.sub(r'fill="#[0-9a-f]+"|stroke="#[0-9a-f]+"', "", picture)
    assert len({centre(coins), centre(strings), centre(myriads)}) == 3
    assert coins.count("<circle") > strings.count("<circle")
    assert myriads.count("<path") > coins.count("<path")
    assert strings.count('rx="') > coins.count('rx="')


@pytest.mark.parametrize("rank", range(1, 10))
def test_the_rank_is_readable(rank: int) -> None:
    for suit in "csm":
        picture = svg.card(Card.parse(f"{rank}{suit}"))
        root = ET.fromstring(picture)
        labels = [text.text for text in root.iter(f"{NS}text")]
        assert labels == [str(rank), str(rank)]  # the index in two corners


def test_each_honour_has_its_own_design() -> None:
    honours = [card for card in Card if card.is_honour]
    designs = {re.sub(r"<title>.*?</title>|aria-label=\"[^\"]*\"|data-card=\"\w+\"|<text.*?</text>",
                      "", svg.card(card)) for card in honours}
    assert len(designs) == 6
    assert _shapes(svg.card(Card.RF)) != _shapes(svg.card(Card.OT))


def test_titles_are_localised_and_escaped() -> None:
    for language in LANGUAGES:
        name = translator(language).card_name(Card.WF)
        assert ET.fromstring(svg.card(Card.WF, title=name)).findtext(f"{NS}title") == name
    tricky = svg.card(Card.C1, title='<b> & "x"')
    assert ET.fromstring(tricky).findtext(f"{NS}title") == '<b> & "x"'


def test_size_scales_the_picture() -> None:
    root = ET.fromstring(svg.card(Card.M9, size=120))
    assert (root.get("width"), root.get("height")) == ("120", "168")


def test_back_and_hand() -> None:
    back = ET.fromstring(svg.back(title="Rub karty"))
    assert back.findtext(f"{NS}title") == "Rub karty"
    cards = parse_cards("5c 5c 5s 5s 5m 8c 8c 8c")
    hand = ET.fromstring(svg.hand(cards, size=30))
    groups = hand.findall(f"{NS}g")
    assert len(groups) == 8
    assert [group.findtext(f"{NS}title") for group in groups] == [svg.english_name(card) for card in cards]
    assert hand.get("height") == "42"
    assert ET.fromstring(svg.hand([])).get("width") == "0"
    with pytest.raises(KowahError):
        svg.hand(cards, titles=["one"])


# -- localised honour faces and bad arguments (issues 18, 19) ----------------------------------


def _corner_labels(picture: str) -> list[str | None]:
    return [text.text for text in ET.fromstring(picture).iter(f"{NS}text")]


@pytest.mark.parametrize(("language", "card", "letters"), [
    ("en", Card.OT, "OT"), ("it", Card.OT, "VM"), ("cs", Card.RF, "ČK"), ("es", Card.OT, "MV"),
    ("ms", Card.RF, "BM"), ("cs", Card.MK, "M"), ("es", Card.WF, "FB"),
])
def test_honour_faces_carry_the_initials_of_their_title(language: str, card: Card, letters: str) -> None:
    title = translator(language).card_name(card)
    assert _corner_labels(svg.card(card, title=title)) == [letters, letters]
    assert _corner_labels(svg.card(card)) == [svg.initials(svg.english_name(card))] * 2 or card is Card.MK
    hand = svg.hand([card, Card.C5], titles=[title, "cinque"])
    assert _corner_labels(hand) == [letters, letters, "5", "5"]


def test_without_a_title_the_faces_keep_the_english_letters() -> None:
    assert [_corner_labels(svg.card(card))[0] for card in Card if card.is_honour] == [
        "OT", "RF", "WF", "WS", "GS", "MK"]


def _any(value: object) -> Any:
    """*value*, typed so that a test may pass it where the API wants something else."""
    return value


@pytest.mark.parametrize("bad", [b"5c", "5c", 12, None, 12.5])
def test_a_card_that_is_not_a_card_is_a_type_error(bad: object) -> None:
    calls: list[Callable[[], object]] = [lambda: svg.card(_any(bad)), lambda: svg.english_name(_any(bad)),
                                          lambda: svg.hand([_any(bad)])]
    for call in calls:
        with pytest.raises(KowahTypeError) as raised:
            call()
        assert f"of type {type(bad).__name__}" in str(raised.value)


@pytest.mark.parametrize("size", [-5, 0, float("nan"), float("inf"), 10 ** 9])
def test_sizes_that_draw_nothing_are_refused(size: float) -> None:
    calls: list[Callable[[], object]] = [lambda: svg.card(Card.C5, size=size), lambda: svg.back(size=size),
                                          lambda: svg.hand([Card.C5], size=size)]
    for call in calls:
        with pytest.raises(KowahError, match="size must be more than 0") as raised:
            call()
        assert not isinstance(raised.value, TypeError)


def test_arguments_of_the_wrong_type() -> None:
    calls: list[Callable[[], object]] = [
        lambda: svg.card(Card.C5, size=_any("60")), lambda: svg.card(Card.C5, size=True),
        lambda: svg.card(Card.C5, title=_any(5)), lambda: svg.back(title=_any(None)),
        lambda: svg.hand(_any("5c 5s")), lambda: svg.hand([Card.C5], titles="x"),
        lambda: svg.hand([Card.C5], overlap=_any("0.5"))]
    for call in calls:
        with pytest.raises(KowahTypeError):
            call()
    with pytest.raises(KowahError):
        svg.hand([Card.C5], overlap=1)
