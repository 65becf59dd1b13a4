"""Cards, packs and card codes (R1–R3)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kowah import (
    KOWAH_DECK,
    MONEY_PACK,
    Card,
    CardParseError,
    DeckError,
    Honour,
    KowahError,
    KowahTypeError,
    Pack,
    Suit,
    format_cards,
    parse_cards,
)
from kowah.errors import printable

ALL_CARDS = tuple(Card)
SUIT_CARDS = tuple(card for card in Card if not card.is_honour)
HONOURS = tuple(card for card in Card if card.is_honour)


# -- R1: the money pack ----------------------------------------------------------------------------


def test_r1_money_pack_has_132_cards_four_of_each_of_33_kinds() -> None:
    assert len(MONEY_PACK) == 132
    assert len(MONEY_PACK.cards) == 132
    assert len(MONEY_PACK.kinds) == 33
    assert all(MONEY_PACK.copies(card) == 4 for card in Card)


def test_r1_money_pack_is_108_suit_cards_and_24_honours() -> None:
    assert sum(1 for card in MONEY_PACK if not card.is_honour) == 108
    assert sum(1 for card in MONEY_PACK if card.is_honour) == 24
    assert {card.suit for card in SUIT_CARDS} == {Suit.COINS, Suit.STRINGS, Suit.MYRIADS}
    assert sorted({card.rank for card in SUIT_CARDS if card.rank is not None}) == list(range(1, 10))


def test_r1_six_honours_with_their_names() -> None:
    assert [honour.name for honour in Honour] == [
        "OLD_THOUSAND", "RED_FLOWER", "WHITE_FLOWER", "WHITE_SNAKE", "GREEN_SNAKE", "MONK",
    ]
    assert [card.honour for card in HONOURS] == list(Honour)


# -- R2: the Kowah deck ----------------------------------------------------------------------------


def test_r2_kowah_deck_has_120_cards() -> None:
    assert len(KOWAH_DECK) == 120
    assert len(KOWAH_DECK.cards) == 120
    assert len(KOWAH_DECK.kinds) == 30


def test_r2_snakes_and_monks_are_left_out() -> None:
    for code in ("ws", "gs", "mk"):
        assert KOWAH_DECK.copies(Card.parse(code)) == 0
        assert Card.parse(code) not in KOWAH_DECK
        assert Card.parse(code) in MONEY_PACK
    for code in ("ot", "rf", "wf"):
        assert KOWAH_DECK.copies(Card.parse(code)) == 4
    assert all(KOWAH_DECK.copies(card) == 4 for card in SUIT_CARDS)


def test_r2_honours_are_three_distinct_kinds() -> None:
    groups = {Card.OT.group, Card.RF.group, Card.WF.group}
    assert len(groups) == 3
    assert not groups & {card.group for card in SUIT_CARDS}


def test_pack_contains_iterates_and_validates() -> None:
    assert list(KOWAH_DECK) == list(KOWAH_DECK.cards)
    assert "5c" not in KOWAH_DECK  # only Card values are members
    with pytest.raises(DeckError, match="a count for each of the 33 kinds of card, not 32"):
        Pack("short", [4] * 32)
    with pytest.raises(DeckError, match="a count for each of the 33 kinds of card, and no more"):
        Pack("long", iter(lambda: 4, None))  # an endless sequence is read no further than needed
    with pytest.raises(DeckError, match="a pack holds 0 to 64 copies of mk, not -1"):
        Pack("negative", [4] * 32 + [-1])
    with pytest.raises(DeckError, match="copies of 1c, not 1000000000000000000000000000000"):
        Pack("huge", [10 ** 30] + [4] * 32)


@pytest.mark.parametrize(
    ("name", "counts", "message"),
    [
        (3, [4] * 33, "a pack's name must be text, not 3"),
        ("x", None, "a pack's counts must be a sequence of 33 ints, not None"),
        ("x", "4" * 33, "a pack's counts must be a sequence of 33 ints, not '444"),
        ("x", [4] * 32 + [1.5], "a pack's count of mk must be an int, not 1.5"),
        ("x", [True] + [4] * 32, "a pack's count of 1c must be an int, not True"),
    ],
)
def test_pack_of_wrong_types_is_a_library_type_error(name: object, counts: object, message: str) -> None:
    """Pack validation raised plain errors (issue 10); now KowahTypeError naming the value."""
    with pytest.raises(KowahTypeError) as caught:
        Pack(name, counts)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, TypeError)


# -- R3: card codes --------------------------------------------------------------------------------


def test_r3_suit_card_codes() -> None:
    letters = {Suit.COINS: "c", Suit.STRINGS: "s", Suit.MYRIADS: "m"}
    for card in SUIT_CARDS:
        assert card.suit is not None
        assert str(card) == f"{card.rank}{letters[card.suit]}"
    assert [str(Card.from_suit(Suit.COINS, rank)) for rank in range(1, 10)] == [
        f"{rank}c" for rank in range(1, 10)
    ]


def test_r3_honour_codes() -> None:
    assert [str(card) for card in HONOURS] == ["ot", "rf", "wf", "ws", "gs", "mk"]
    assert Card.from_honour(Honour.OLD_THOUSAND) is Card.OT
    assert Card.parse("ot").honour is Honour.OLD_THOUSAND
    assert Card.parse("mk").honour is Honour.MONK


def test_r3_codes_are_case_insensitive_on_input() -> None:
    assert Card.parse("5C") is Card.C5
    assert Card.parse("Rf") is Card.RF
    assert Card.parse("rF") is Card.RF
    assert parse_cards("5C 5s OT wF") == (Card.C5, Card.S5, Card.OT, Card.WF)


def test_r3_lower_case_on_output() -> None:
    assert format_cards(parse_cards("5C OT 9M")) == "5c ot 9m"
    assert all(str(card) == str(card).lower() for card in Card)
    assert f"{Card.RF}" == "rf"


@pytest.mark.parametrize(
    "text",
    ["5c 5s 5m", "5c,5s,5m", "5c, 5s, 5m", "5c ,5s , 5m", "5c\t5s\n5m", "  5c,,5s  ,\n 5m, "],
)
def test_r3_cards_are_separated_by_spaces_and_or_commas(text: str) -> None:
    assert parse_cards(text) == (Card.C5, Card.S5, Card.M5)


def test_r3_empty_text_is_no_cards() -> None:
    assert parse_cards("") == ()
    assert parse_cards(" , ,") == ()


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("zz", "zz", 1),
        ("5c 5s zz 9m", "zz", 3),
        ("5c,0c", "0c", 2),
        ("10c", "10c", 1),
        ("5c 5x", "5x", 2),
        ("5c 5s 5", "5", 3),
        ("5c5s", "5c5s", 1),
        ("5c; 5s", "5c;", 1),
        ("ot rf ZZ", "ZZ", 3),
    ],
)
def test_r3_unknown_token_names_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_cards(text)
    assert caught.value.token == token
    assert caught.value.position == position
    assert repr(token) in str(caught.value)
    assert f"card {position}" in str(caught.value)


@pytest.mark.parametrize("code", ["ws", "gs", "mk", "WS"])
def test_r3_card_the_kowah_deck_lacks_is_an_error(code: str) -> None:
    with pytest.raises(CardParseError) as caught:
        parse_cards(f"5c 5s {code}")
    assert caught.value.token == code
    assert caught.value.position == 3
    assert repr(code) in str(caught.value)
    assert "Kowah deck" in str(caught.value)
    # The money pack has it, and so does reading without a pack.
    assert parse_cards(f"5c 5s {code}", pack=MONEY_PACK)[-1] is Card.parse(code)
    assert parse_cards(f"5c 5s {code}", pack=None)[-1] is Card.parse(code)


def test_r3_more_than_four_copies_is_an_error() -> None:
    assert parse_cards("5c 5c 5c 5c") == (Card.C5,) * 4
    with pytest.raises(CardParseError) as caught:
        parse_cards("5c 5C 5s 5c 5c 5c")
    assert caught.value.position == 6
    assert caught.value.token == "5c"
    assert "5 copies" in str(caught.value)
    assert "4" in str(caught.value)
    with pytest.raises(CardParseError) as honours:
        parse_cards("rf rf rf rf rf")
    assert honours.value.token == "rf" and honours.value.position == 5
    # The money pack has four too; without a pack any number is read.
    with pytest.raises(CardParseError):
        parse_cards("ws ws ws ws ws", pack=MONEY_PACK)
    assert len(parse_cards("5c " * 7, pack=None)) == 7


def test_card_parse_single_code() -> None:
    assert Card.parse(" 9m ") is Card.M9
    for bad in ("", "5c 5s", "0c", "x"):
        with pytest.raises(CardParseError) as caught:
            Card.parse(bad)
        assert caught.value.token == bad
        assert repr(bad) in str(caught.value)


def test_codes_are_ascii_only() -> None:
    """Card.parse("m\u212a") returned Monk: str.lower() folds the Kelvin sign to "k" (issue 10)."""
    for text in ("m\u212a", "\u0130t", "5\u0421"):  # Kelvin sign; dotted capital I; Cyrillic Es
        with pytest.raises(CardParseError):
            Card.parse(text)
        with pytest.raises(CardParseError) as caught:
            parse_cards(f"5c {text}", pack=None)
        assert caught.value.position == 2
    assert Card.parse("MK") is Card.MK and parse_cards("Mk mK", pack=MONEY_PACK) == (Card.MK, Card.MK)


def test_a_bad_first_token_stops_at_once() -> None:
    """parse_cards split a whole 10 MB text before reading its first token (issue 10): it
    reads tokens one at a time, so it allocates next to nothing before refusing."""
    import tracemalloc

    text = "zz " + "5c " * 3_500_000
    tracemalloc.start()
    with pytest.raises(CardParseError) as caught:
        parse_cards(text)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert (caught.value.token, caught.value.position) == ("zz", 1)
    assert peak < 1_000_000  # the whole text split would take 300 MB


def test_messages_shorten_and_escape_what_they_quote() -> None:
    with pytest.raises(CardParseError) as caught:
        parse_cards("5c " + "x" * 10_000_000)
    assert len(str(caught.value)) < 150 and caught.value.position == 2
    assert "..." in caught.value.token and len(caught.value.token) <= 80
    with pytest.raises(CardParseError) as caught:
        parse_cards("5c\x1b[31m")
    assert str(caught.value) == "unknown card code '5c\\x1b[31m' (card 1)"
    with pytest.raises(CardParseError) as caught:
        Card.parse("\x00" * 1000)
    assert caught.value.token.startswith("\\x00") and len(str(caught.value)) < 300


def test_from_suit_and_from_honour_check_their_arguments() -> None:
    """Card.from_suit(COINS, 5.5) gave a plain ValueError (issue 10)."""
    assert Card.from_suit(Suit.MYRIADS, 9) is Card.M9 and Card.from_honour(Honour.MONK) is Card.MK
    for suit, rank in ((Suit.COINS, 5.5), (Suit.COINS, "5"), (Suit.COINS, True), ("c", 5), (None, 5)):
        with pytest.raises(KowahTypeError):
            Card.from_suit(suit, rank)  # type: ignore[arg-type]
    for rank in (0, 10, -1, 10 ** 30):
        with pytest.raises(CardParseError, match="is not between 1 and 9"):
            Card.from_suit(Suit.COINS, rank)
    for honour in ("mk", 32, None):
        with pytest.raises(KowahTypeError, match="an honour must be an Honour"):
            Card.from_honour(honour)  # type: ignore[arg-type]


def test_parse_cards_checks_its_pack() -> None:
    with pytest.raises(KowahTypeError, match="pack must be a Pack"):
        parse_cards("5c", pack="money")  # type: ignore[arg-type]


def test_input_of_a_wrong_type_is_a_type_error_that_describes_it() -> None:
    for value, described in ((None, "None of type NoneType"), (b"5c", "b'5c' of type bytes"),
                             (12, "12 of type int")):
        with pytest.raises(KowahTypeError) as caught:
            parse_cards(value)  # type: ignore[arg-type]
        assert str(caught.value).endswith(f"not {described}")
    with pytest.raises(KowahTypeError, match="item 2 of the cards is 5 of type int, not a card code"):
        parse_cards(["5c", 5])  # type: ignore[list-item]
    with pytest.raises(KowahTypeError, match="a card code must be text, not 5 of type int"):
        Card.parse(5)  # type: ignore[arg-type]


def test_a_list_of_codes_is_read_as_text_is() -> None:
    assert parse_cards(["5c", "5S", "rf"]) == parse_cards("5c 5s rf") == (Card.C5, Card.S5, Card.RF)
    assert parse_cards(("ot",)) == (Card.OT,) and parse_cards([]) == ()
    with pytest.raises(CardParseError, match=r"unknown card code 'zz' \(card 2\)"):
        parse_cards(["5c", "zz"])
    with pytest.raises(CardParseError, match="'ws' \\(card 1\\) is not in the Kowah deck"):
        parse_cards(["ws"])


def test_card_order_values_and_attributes() -> None:
    assert [card.value for card in Card] == list(range(33))
    assert [str(card) for card in Card][:6] == ["1c", "1s", "1m", "2c", "2s", "2m"]
    assert Card.C5.rank == 5 and Card.C5.suit is Suit.COINS and Card.C5.honour is None
    assert Card.RF.rank is None and Card.RF.suit is None and Card.RF.is_honour
    assert Card.C5.group == Card.S5.group == Card.M5.group != Card.C6.group
    assert Card.from_suit(Suit.MYRIADS, 9) is Card.M9
    for rank in (0, 10):
        with pytest.raises(CardParseError) as caught:
            Card.from_suit(Suit.COINS, rank)
        assert caught.value.token == str(rank)


def test_card_errors_are_kowah_errors_and_value_errors() -> None:
    assert issubclass(CardParseError, KowahError)
    assert issubclass(KowahError, ValueError)
    with pytest.raises(ValueError):
        parse_cards("nope")


# -- properties ------------------------------------------------------------------------------------


@given(st.sampled_from(ALL_CARDS))
def test_parse_format_parse_is_identity_for_every_card(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).upper()) is card
    assert parse_cards(format_cards([card]), pack=MONEY_PACK) == (card,)
    assert eval(repr(card), {"Card": Card}) is card  # repr evaluates


SEPARATORS = st.sampled_from([" ", ",", ", ", " , ", "\t", "\n", ",,", "  "])


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=20), st.data())
def test_parse_format_parse_is_identity_for_card_lists(cards: list[Card], data: st.DataObject) -> None:
    assert parse_cards(format_cards(cards), pack=None) == tuple(cards)
    # Any case and any separators read the same cards back.
    tokens = [
        "".join(ch.upper() if data.draw(st.booleans()) else ch for ch in str(card)) for card in cards
    ]
    text = data.draw(SEPARATORS)
    for token in tokens:
        text += token + data.draw(SEPARATORS)
    parsed = parse_cards(text, pack=None)
    assert parsed == tuple(cards)
    assert parse_cards(format_cards(parsed), pack=None) == parsed
    assert format_cards(parsed) == " ".join(str(card) for card in cards)


CODE_LIKE = st.one_of(
    st.sampled_from([str(card) for card in Card] + [str(card).upper() for card in Card]),
    st.text(alphabet="0123456789cmsotrfwgkCMSZ", max_size=3),
    st.text(max_size=4),
)


@given(
    st.one_of(
        st.text(),
        st.lists(st.tuples(CODE_LIKE, SEPARATORS), max_size=12).map(
            lambda parts: "".join(token + sep for token, sep in parts)
        ),
    ),
    st.sampled_from([KOWAH_DECK, MONEY_PACK, None]),
)
def test_arbitrary_text_raises_only_card_parse_error(text: str, pack: Pack | None) -> None:
    try:
        parsed = parse_cards(text, pack=pack)
    except CardParseError as error:
        assert error.token
        if error.position is not None:
            raw = re.findall(r"[^\s,]+", text)[error.position - 1]
            assert error.token == printable(raw, 80)  # the token, shortened and printable
            assert f"'{error.token}'" in str(error)
        return
    assert all(type(card) is Card for card in parsed)
    if pack is not None:
        assert all(parsed.count(card) <= pack.copies(card) for card in parsed)
    assert parse_cards(format_cards(parsed), pack=pack) == parsed


@given(st.text(max_size=6))
def test_card_parse_on_arbitrary_text_raises_only_card_parse_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except CardParseError as error:
        assert error.token == printable(text, 80)
        return
    assert str(card) == text.strip().lower()


def test_packs_are_frozen_values_that_pickle_and_copy() -> None:
    import copy
    import pickle

    pack = Pack("two", [2] * 33)
    assert pickle.loads(pickle.dumps(pack)) == pack and copy.deepcopy(pack) == pack
    assert hash(Pack("two", (2,) * 33)) == hash(pack) and pack != Pack("other", [2] * 33)
    assert pickle.loads(pickle.dumps(KOWAH_DECK)) == KOWAH_DECK
    assert repr(pack) == f"Pack(name='two', counts={(2,) * 33!r})"
    with pytest.raises(AttributeError):
        pack.name = "three"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del pack.counts
    assert pack != ("two", (2,) * 33)  # type: ignore[comparison-overlap]  # a value is no tuple


@pytest.mark.parametrize("bad", [None, 5, "5c 5s", b"5c", [12], [True], ["5c"], [Card.C5, None],
                                 (Card.C5, 99)])
def test_format_cards_refuses_what_is_no_sequence_of_cards_with_a_library_error(bad: object) -> None:
    """Found by benchmarks/fuzz.py: format_cards raised a bare TypeError or IndexError (a str, an
    int, a code, an index out of range); now a KowahTypeError that names the value."""
    from kowah.errors import KowahTypeError

    with pytest.raises(KowahTypeError) as caught:
        format_cards(bad)  # type: ignore[arg-type]
    assert "must be a" in str(caught.value)
    assert format_cards(card for card in (Card.C5, Card.RF)) == "5c rf"  # any iterable of cards
