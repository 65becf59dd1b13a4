"""The text layer: locales, translators, card names, errors and outcomes (issue 3).

The rendering of the rules is tested in tests/test_rendering.py.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import warnings
from types import SimpleNamespace

import pytest

from kowah import (
    Card,
    CardParseError,
    DrawnBy,
    Event,
    IllegalActionError,
    KowahError,
    LocaleError,
    Outcome,
    parse_cards,
)
from kowah.errors import KowahTypeError, RecordError
from kowah.i18n import (
    LANGUAGES,
    CardForm,
    LocaleWarning,
    Translator,
    language_from_environment,
    negotiate,
    translator,
)

# --- negotiation ---------------------------------------------------------------------------

@pytest.mark.parametrize(("tag", "language"), [
    ("cs_CZ", "cs"), ("cs-CZ", "cs"), ("cs_CZ.UTF-8", "cs"), ("cs_CZ.UTF-8@euro", "cs"),
    ("CS-cz", "cs"), ("cs", "cs"), ("es_MX", "es"), ("es-419", "es"), ("it_IT", "it"),
    ("it_CH.utf8", "it"), ("ms_MY", "ms"), ("ms", "ms"), ("id_ID", "id"), ("id", "id"),
    ("en_GB", "en"), ("en", "en"),
    ("C", "en"), ("POSIX", "en"), ("C.UTF-8", "en"), (None, "en"), ("", "en"),
])
def test_negotiate(tag: str | None, language: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert negotiate(tag) == language
        assert negotiate(tag, strict=True) == language


@pytest.mark.parametrize("tag", ["xx", "de_DE", "zz-ZZ", "cs_CZ!", "../etc", "12"])
def test_unknown_or_malformed_gives_english_and_a_warning(tag: str) -> None:
    with pytest.warns(LocaleWarning, match="English"):
        assert negotiate(tag) == "en"
    with pytest.raises(LocaleError) as raised:
        negotiate(tag, strict=True)
    assert tag in str(raised.value)
    assert isinstance(raised.value, ValueError) and raised.value.params["tag"] == tag


def test_locale_warning_is_a_user_warning() -> None:
    assert issubclass(LocaleWarning, UserWarning)


@pytest.mark.parametrize(("environ", "expected"), [
    ({"LANGUAGE": "cs_CZ:it", "LC_ALL": "es_ES", "LC_MESSAGES": "it_IT", "LANG": "ms_MY"},
     "cs_CZ"),
    ({"LANGUAGE": "de:fr:it_IT", "LC_ALL": "es_ES"}, "it_IT"),
    ({"LANGUAGE": "de", "LC_ALL": "es_ES"}, "es_ES"),
    ({"LANGUAGE": "", "LC_ALL": "es_ES", "LC_MESSAGES": "it_IT", "LANG": "ms_MY"}, "es_ES"),
    ({"LC_ALL": "", "LC_MESSAGES": "it_IT", "LANG": "ms_MY"}, "it_IT"),
    ({"LANG": "ms_MY.UTF-8"}, "ms_MY.UTF-8"),
    ({"LANGUAGE": "en_GB:cs"}, "en_GB"),
    ({}, None),
])
def test_language_from_environment(environ: dict[str, str], expected: str | None) -> None:
    assert language_from_environment(environ) == expected


def test_translator_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "es_AR.UTF-8")
    assert translator().language == "es"


def test_translators_are_cached_per_language() -> None:
    assert translator("cs_CZ") is translator("cs-CZ") is translator("cs")
    assert translator("it") is not translator("es")
    assert isinstance(translator("ms"), Translator)


def test_no_global_underscore_is_installed() -> None:
    code = ("import builtins, kowah.i18n as i18n\n"
            "for language in i18n.LANGUAGES:\n"
            "    i18n.translator(language).gettext('rules', 'Claims')\n"
            "print('_' in vars(builtins))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["False"]


def test_import_kowah_does_not_import_babel() -> None:
    code = ("import sys, kowah, kowah.i18n, kowah.rulebook; "
            "print('babel' in sys.modules); kowah.i18n.translator('cs'); "
            "print('babel' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.split() == ["False", "True"]


# --- messages, plurals, card names ---------------------------------------------------------

@pytest.mark.parametrize(("language", "forms"), [
    ("en", ["1 card", "2 cards", "5 cards", "21 cards"]),
    ("it", ["1 carta", "2 carte", "5 carte", "21 carte"]),
    ("cs", ["1\xa0karta", "2\xa0karty", "5\xa0karet", "21\xa0karet"]),
    ("ms", ["1 kad", "2 kad", "5 kad", "21 kad"]),
    ("es", ["1 carta", "2 cartas", "5 cartas", "21 cartas"]),
    ("id", ["1 kartu", "2 kartu", "5 kartu", "21 kartu"]),
])
def test_plurals(language: str, forms: list[str]) -> None:
    assert [translator(language).card_count(n) for n in (1, 2, 5, 21)] == forms


def test_gettext_uses_the_context() -> None:
    cs = translator("cs")
    assert cs.gettext("rules", "Claims") == "Nároky"
    assert cs.gettext("card", "Claims") == "Claims"  # no such message in that context
    assert cs.gettext("action", "draw") == "líznout"


@pytest.mark.parametrize("language", LANGUAGES)
def test_card_names_are_complete_and_distinct(language: str) -> None:
    t = translator(language)
    full = [t.card_name(card) for card in Card]
    short = [t.card_name(card, short=True) for card in Card]
    assert len(set(full)) == 33 and len(set(short)) == 33
    assert all(name.strip() == name and name for name in full + short)
    if language != "en":  # every name is translated
        english = translator("en")
        assert all(t.card_name(card) != english.card_name(card) for card in Card if card < 27)


@pytest.mark.parametrize(("language", "card", "full", "short"), [
    ("en", Card.C5, "Five of Coins", "5 Coins"),
    ("en", Card.S1, "One of Strings", "1 String"),
    ("en", Card.OT, "Old Thousand", "Old Thousand"),
    ("it", Card.M9, "nove di miriadi", "9 miriadi"),
    ("it", Card.C1, "asso di monete", "1 moneta"),
    ("it", Card.OT, "Vecchio Mille", "Vecchio Mille"),
    ("cs", Card.C5, "pětka mincí", "5\xa0mincí"),
    ("cs", Card.S2, "dvojka šňůr", "2\xa0šňůry"),
    ("cs", Card.MK, "Mnich", "Mnich"),
    ("ms", Card.M5, "lima laksa", "5 laksa"),
    ("ms", Card.WF, "Bunga Putih", "Bunga Putih"),
    ("es", Card.S7, "siete de sartas", "7 sartas"),
    ("es", Card.RF, "Flor Roja", "Flor Roja"),
    ("id", Card.S5, "lima renteng", "5 renteng"),
    ("id", Card.MK, "Biksu", "Biksu"),
])
def test_card_name_examples(language: str, card: Card, full: str, short: str) -> None:
    t = translator(language)
    assert (t.card_name(card), t.card_name(card, short=True)) == (full, short)


def test_lists_and_numbers_follow_the_locale() -> None:
    assert translator("en").format_list(["a", "b", "c"]) == "a, b and c"  # no serial comma (GLOSSARY)
    assert translator("en").format_list(["a", "b", "c"], style="or") == "a, b or c"
    assert translator("it").format_list(["a", "b", "c"]) == "a, b e c"
    assert translator("es").format_list(["a", "b"], style="or") == "a o b"
    assert translator("ms").format_list(["a", "b", "c"]) == "a, b dan c"
    assert translator("id").format_list(["a", "b", "c"]) == "a, b, dan c"
    assert translator("cs").format_list(["a", "b"]).replace("\xa0", " ") == "a a b"
    assert translator("en").format_number(1234567) == "1,234,567"
    assert translator("it").format_number(1234567) == "1.234.567"
    assert translator("id").format_number(1234.5) == "1.234,5"
    assert translator("cs").format_number(1234).replace("\xa0", " ") == "1 234"


def test_spanish_writes_u_and_e_before_the_sounds_o_and_i() -> None:
    es = translator("es")
    assert es.format_list(["siete", "ocho"], style="or") == "siete u ocho"
    assert es.format_list(["uno", "dos", "hora"], style="or") == "uno, dos u hora"
    assert es.format_list(["siete", "nueve"], style="or") == "siete o nueve"
    assert es.format_list(["padre", "hijo"]) == "padre e hijo"
    assert es.format_list(["agua", "hielo"]) == "agua y hielo"  # a diphthong keeps "y"
    assert es.format_list(["a", "b", "c"]) == "a, b y c"


#: The language's "or" in a list of two alternatives, and the object form of the Five of Coins.
OR_LISTS = {"en": (" or ", "the Five of Coins"), "it": (" o ", "il cinque di monete"),
            "cs": (" nebo ", "pětku mincí"), "ms": (" atau ", "lima syiling"),
            "es": (" o ", "el cinco de monedas"), "id": (" atau ", "lima koin")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_list_of_alternatives_joins_with_or_and_each_card_keeps_its_form(language: str) -> None:
    t = translator(language)
    word, five = OR_LISTS[language]
    cards = (Card.C5, Card.S6)
    objects = t.sentence("doctest", "{cards:object|or}", cards=cards)
    assert objects == five + word + t.card(Card.S6, "object")
    assert t.sentence("doctest", "{cards:or}", cards=cards) == t.sentence("doctest", "{cards:name|or}",
                                                                          cards=cards)
    assert t.sentence("doctest", "{cards:or}", cards=cards) == t.card(Card.C5) + word + t.card(Card.S6)
    assert t.sentence("doctest", "{cards:with|or}", cards=cards) == (
        t.card(Card.C5, "with") + word + t.card(Card.S6, "with"))
    # Without "|or" the same cards are all meant: the language's "and".
    assert word not in t.sentence("doctest", "{cards:object}", cards=cards)
    # One card, and a card on its own, are just that card.
    assert t.sentence("doctest", "{cards:object|or}", cards=(Card.C5,)) == five
    assert t.sentence("doctest", "{card:object|or}", card=Card.C5) == five
    three = t.sentence("doctest", "{cards:object|or}", cards=(Card.C5, Card.S6, Card.RF))
    assert three.count(word) == 1 and three.endswith(word + t.card(Card.RF, "object"))


@pytest.mark.parametrize("spec", ["object|and", "object|", "|or", "or|object", "dative|or"])
def test_an_unknown_list_form_is_a_library_error_naming_it(spec: str) -> None:
    with pytest.raises(KowahError, match=re.escape(repr(spec))):
        translator("it").sentence("doctest", f"{{cards:{spec}}}", cards=(Card.C5, Card.S6))


# --- errors and outcomes -------------------------------------------------------------------

def _error(text: str) -> KowahError:
    with pytest.raises(KowahError) as raised:
        parse_cards(text)
    return raised.value


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "unknown card code 'zz' (card 2)"),
    ("it", "codice di carta sconosciuto 'zz' (carta 2)"),
    ("cs", "neznámý kód karty „zz“ (karta č.\xa02)"),
    ("ms", "kod kad tidak dikenali “zz” (kad ke-2)"),
    ("es", "código de carta desconocido 'zz' (carta 2)"),
    ("id", "kode kartu tidak dikenal 'zz' (kartu ke-2)"),
])
def test_error_rendering(language: str, expected: str) -> None:
    error = _error("5c zz")
    assert isinstance(error, CardParseError)
    assert translator(language).error(error) == expected


def test_english_error_equals_the_exception_message() -> None:
    for text in ("5c zz", "5c ws", "5c 5c 5c 5c 5c"):
        error = _error(text)
        assert translator("en").error(error) == str(error)


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "'ws' (card 2) is not in the Kowah deck"),
    ("it", "'ws' (carta 2) non è nel mazzo Kowah"),
    ("cs", "balíček Kowah nemá kartu „ws“ (karta č.\xa02)"),
    ("ms", "“ws” (kad ke-2) tiada dalam dek Kowah"),
    ("es", "'ws' (carta 2) no está en la baraja Kowah"),
    ("id", "'ws' (kartu ke-2) tidak ada dalam dek Kowah"),
])
def test_pack_names_in_errors_are_translated(language: str, expected: str) -> None:
    assert translator(language).error(_error("5c ws")) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "seat 1 cannot discard 5c: it is seat 2's turn"),
    ("it", "il posto 1 non può scartare 5c: è il turno del posto 2"),
    ("cs", "místo\xa01 nemůže odhodit 5c: na tahu je místo\xa02"),
    ("ms", "tempat duduk 1 tidak boleh membuang 5c: sekarang giliran tempat duduk 2"),
    ("es", "el asiento 1 no puede descartar 5c: es el turno del asiento 2"),
    ("id", "kursi 1 tidak dapat membuang 5c: sekarang giliran kursi 2"),
])
def test_illegal_action_nests_its_reason(language: str, expected: str) -> None:
    from kowah import Action, Reason, Refusal

    refusal = Refusal(Reason.NOT_YOUR_TURN, Action.discard(1, Card.C5), {"turn": 2})
    error = IllegalActionError(refusal)
    assert str(error) == "seat 1 cannot discard 5c: it is seat 2's turn"
    assert translator(language).error(error) == expected
    assert expected.endswith(translator(language).refusal(refusal))


def test_illegal_action_from_a_deal() -> None:
    from kowah import Action, Deal

    deal = Deal.shuffled(7)
    with pytest.raises(IllegalActionError) as raised:
        deal.apply(Action.take(deal.turn))  # R10: the opening turn must draw
    text = translator("cs").error(raised.value)
    assert text.startswith(f"místo\xa0{deal.turn} nemůže vzít poslední odhozenou kartu: ")
    assert "take" not in text


def test_record_error_translates_the_wrapped_reason() -> None:
    from kowah import Action, Deal
    from kowah.record import Record

    deal = Deal.shuffled(3)
    record = Record.from_deal(deal).to_dict()
    record["actions"] = [{"seat": deal.turn, "do": "take"}]
    with pytest.raises(RecordError) as raised:
        Record.from_dict(record).replay()
    assert raised.value.action == 0
    text = translator("es").error(raised.value)
    assert text.startswith("acción 0: el asiento ")
    assert "no puede tomar el último descarte" in text
    assert Action.draw(0)  # the API used above exists


def _win(by: str) -> Outcome:
    return Outcome.win(2, by, Card.C5)


@pytest.mark.parametrize(("language", "by", "expected"), [
    ("en", "self-draw", "Seat 2 wins with the Five of Coins by self-draw, ×3."),
    ("en", "discard", "Seat 2 wins with the Five of Coins by claiming a discard, ×2."),
    ("en", "draw-claim", "Seat 2 wins with the Five of Coins by claiming another player's stock draw, ×1."),
    ("it", "self-draw", "Il posto 2 ha vinto con il cinque di monete per pescata propria, ×3."),
    ("cs", "discard", "Hráč na místě\xa02 vyhrává s\xa0pětkou mincí nárokem na odhozenou kartu, ×2."),
    ("ms", "draw-claim", "Pemain di tempat duduk 2 menang dengan lima syiling melalui tuntutan ke atas "
                         "cabutan stok pemain lain, ×1."),
    ("es", "self-draw", "El asiento 2 ha ganado con el cinco de monedas por robo propio, ×3."),
    ("id", "draw-claim", "Pemain di kursi 2 menang dengan lima koin melalui klaim atas tarikan pemain "
                         "lain dari tumpukan, ×1."),
])
def test_outcome_wins(language: str, by: str, expected: str) -> None:
    assert translator(language).outcome(_win(by)) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "You win with the Five of Coins by self-draw, ×3."),
    ("it", "Hai vinto con il cinque di monete per pescata propria, ×3."),
    ("cs", "Vyhráváte s\xa0pětkou mincí vlastním líznutím, ×3."),
    ("ms", "Anda menang dengan lima syiling melalui cabutan sendiri, ×3."),
    ("es", "Has ganado con el cinco de monedas por robo propio, ×3."),
    ("id", "Anda menang dengan lima koin melalui tarikan sendiri, ×3."),
])
def test_outcome_said_to_the_winner(language: str, expected: str) -> None:
    t = translator(language)
    assert t.outcome(_win("self-draw"), viewer=2) == expected
    assert t.outcome(_win("self-draw"), viewer=1) == t.outcome(_win("self-draw"))  # not the winner


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Ana wins with the Five of Coins by claiming a discard, ×2."),
    ("it", "Ana ha vinto con il cinque di monete rivendicando uno scarto, ×2."),
    ("cs", "Ana vyhrává s\xa0pětkou mincí nárokem na odhozenou kartu, ×2."),
    ("ms", "Ana menang dengan lima syiling melalui tuntutan ke atas buangan, ×2."),
    ("es", "Ana ha ganado con el cinco de monedas al reclamar un descarte, ×2."),
    ("id", "Ana menang dengan lima koin melalui klaim kartu buangan, ×2."),
])
def test_outcome_names_the_winner_at_a_friends_table(language: str, expected: str) -> None:
    assert translator(language).outcome(_win("discard"), names=["Bo", "Cy", " Ana "]) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "The deal is drawn: the stock ran out."),
    ("it", "La smazzata è finita patta: il tallone si è esaurito."),
    ("cs", "Rozdání končí nerozhodně: talon došel."),
    ("ms", "Pusingan berakhir seri: stok sudah habis."),
    ("es", "La ronda ha terminado en tablas: se ha agotado el mazo."),
    ("id", "Babak berakhir seri: tumpukan sudah habis."),
])
def test_outcome_drawn(language: str, expected: str) -> None:
    assert translator(language).outcome(Outcome.drawn(DrawnBy.EXHAUSTION)) == expected


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_deal_drawn_for_want_of_progress_says_so(language: str) -> None:
    """R17's drawn deal has a sentence of its own, distinct from R16's."""
    t = translator(language)
    no_progress = SimpleNamespace(result="drawn", winner=None, by="no-progress", multiplier=None,
                                  card=None)
    with pytest.raises(KowahTypeError):
        t.outcome(no_progress)  # type: ignore[arg-type]
    drawn = _drawn_by("no-progress")
    if drawn is not None:
        text = t.outcome(drawn)
        assert text != t.outcome(Outcome.drawn(DrawnBy.EXHAUSTION)) and text.endswith(".")
    message = t.gettext("outcome", "The deal ends with no winner: too many turns in a row went by "
                                   "without a card from the stock.")
    assert message.endswith(".") and (language == "en" or "too many" not in message)


def _drawn_by(by: str) -> Outcome | None:
    """``Outcome.drawn(by)``: a drawn deal with its reason (R16, R17)."""
    return Outcome.drawn(by)


def test_every_outcome_sentence_ends_with_a_full_stop() -> None:
    for language in LANGUAGES:
        t = translator(language)
        for by in ("self-draw", "discard", "draw-claim"):
            for viewer in (None, 2):
                assert t.outcome(_win(by), viewer=viewer).endswith(".")
        assert t.outcome(Outcome.drawn(DrawnBy.EXHAUSTION)).endswith(".")


def test_outcome_of_something_else_is_a_type_error() -> None:
    for bad in (None, "win", {"result": "win"}):
        with pytest.raises(KowahTypeError, match="outcome\\(\\) describes an Outcome"):
            translator("en").outcome(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_event_of_a_deal_has_a_sentence_for_its_seat_and_for_others(language: str) -> None:
    import random as _random

    from kowah import Deal
    from kowah.players import HardPlayer
    from kowah.simulation import play_deal

    t = translator(language)
    deal = play_deal([HardPlayer(_random.Random(seat)) for seat in range(3)], Deal.shuffled(seed=11))
    kinds = set()
    for event in deal.observation(0).events:
        kinds.add(event.kind)
        told, onlooker = t.event(event, viewer=0), t.event(event)
        assert told and onlooker, event
        if event.card is not None:
            form: CardForm = "with" if event.kind == "win" else "object"  # {with_card}, {card}
            assert t.card(event.card, form) in told and t.card(event.card, form) in onlooker
            assert not re.search(rf"\b{event.card.code}\b", told)  # names, never codes
        if event.seat == 0 and event.kind != "drawn":
            assert told != onlooker  # "You draw…" against "Seat 0 draws…"
        elif event.seat is not None:
            assert str(event.seat) in told
    assert {"draw", "discard", "declare"} <= kinds and kinds & {"win", "drawn"}


@pytest.mark.parametrize(("language", "kind", "expected"), [
    ("en", "draw", "You draw the Red Flower."),
    ("en", "win", "Seat 1 wins with the Red Flower."),
    ("it", "discard", "Il posto 1 scarta il Fiore Rosso."),
    ("it", "take", "Prendi il Fiore Rosso."),
    ("cs", "declare", "Hráč na místě\xa01 ohlašuje checki a\xa0čeká na Červený květ!"),
    ("cs", "win", "Hráč na místě\xa01 vyhrává s\xa0Červeným květem."),
    ("ms", "take", "Anda mengambil Bunga Merah."),
    ("es", "discard", "El asiento 1 descarta la Flor Roja."),
    ("es", "declare", "¡El asiento 1 declara checki esperando la Flor Roja!"),
    ("id", "discard", "Pemain di kursi 1 membuang Bunga Merah."),
])
def test_event_sentences_name_the_card_in_the_form_the_sentence_needs(
        language: str, kind: str, expected: str) -> None:
    seat = 0 if expected.split()[0] in ("You", "Prendi", "Anda") else 1
    assert translator(language).event(Event(kind, seat, Card.RF), viewer=0) == expected


def test_codes_on_request() -> None:
    """translator(tag, codes=True): names in sentences read with the card's code."""
    plain, coded = translator("es"), translator("es", codes=True)
    event = Event("discard", 2, Card.C5)
    assert plain.event(event) == "El asiento 2 descarta el cinco de monedas."
    assert coded.event(event) == "El asiento 2 descarta el cinco de monedas (5c)."
    assert coded.outcome(_win("discard"), viewer=2) == (
        "Has ganado con el cinco de monedas (5c) al reclamar un descarte, ×2.")
    assert coded.card_name(Card.C5) == plain.card_name(Card.C5) == "cinco de monedas"  # a name is a name
    assert coded != plain and coded.codes and not plain.codes
    assert translator("es", codes=True) is coded


def test_seat_names() -> None:
    t = translator("cs")
    assert [t.seat_name(seat, viewer=0) for seat in range(3)] == ["Vy", "Místo\xa01", "Místo\xa02"]
    assert t.seat_name(2, names=["Ana", None, "Bo"]) == "Bo"
    assert t.seat_name(1, names=["Ana", None, "Bo"]) == "Místo\xa01"  # no name: the seat
    assert t.seat_name(1, names=["Ana", "  ", "Bo"]) == "Místo\xa01"
    assert t.event(Event("draw", 1, None, public=False), names=["Ana", "Bo\x1b[2J", "Cy"]) == (
        "Bo\\x1b[2J si líže kartu.")  # a name is shown printable
    assert len(t.seat_name(0, names=["x" * 500, None, None])) <= 40
    with pytest.raises(KowahTypeError):
        t.seat_name(1, names="Ana")
    with pytest.raises(KowahTypeError):
        t.seat_name(1, names=[None, 5, None])  # type: ignore[list-item]
    with pytest.raises(KowahTypeError):
        t.seat_name("1")  # type: ignore[arg-type]
    with pytest.raises(KowahError, match="no seat 3"):
        t.seat_name(3)


def test_ai_level_names() -> None:
    from kowah.players import PLAYERS

    for language in LANGUAGES:
        names = [translator(language).level_name(level) for level in PLAYERS]
        assert len(set(names)) == len(PLAYERS)
    assert translator("es").level_name("hard") == "difícil"
    from kowah.players import UnknownPlayerError, make_player

    with pytest.raises(UnknownPlayerError, match="'expert'") as caught:
        translator("en").level_name("expert")
    with pytest.raises(UnknownPlayerError) as made:  # one error, one message for an unknown level
        make_player("expert", random.Random(0))
    assert str(caught.value) == str(made.value)


# -- bad input and the English fast path (issue 10) ------------------------------------------------


def test_a_locale_tag_that_is_not_text_is_a_library_error() -> None:
    from kowah.errors import KowahTypeError

    for bad in (5, b"cs", ["cs"]):
        with pytest.raises(KowahTypeError, match="a locale tag must be text"):
            translator(bad)  # type: ignore[arg-type]


def test_card_counts_of_any_size_are_written_or_refused_by_the_library() -> None:
    from kowah.errors import KowahError, KowahTypeError

    assert translator("en").card_count(10 ** 30) == "1,000,000,000,000,000,000,000,000,000,000 cards"
    assert translator("cs").card_count(10 ** 30).startswith("1\xa0000\xa0000")
    with pytest.raises(KowahError, match="cannot write <an integer of about 5001 digits> as a number"):
        translator("en").card_count(10 ** 5000)
    for bad in (2.5, "3", True):
        with pytest.raises(KowahTypeError):
            translator("en").card_count(bad)  # type: ignore[arg-type]


def test_english_needs_no_babel() -> None:
    """The command ``kowah check`` in English loads no Babel (start-up time, issue 10)."""
    import subprocess
    import sys

    code = ("import sys; from kowah.i18n import translator\n"
            "t = translator('en_GB.UTF-8')\n"
            "print(t.language, t.format_list(['a', 'b']), t.format_list(['a', 'b', 'c'], style='or'),\n"
            "      any(name.split('.')[0] == 'babel' for name in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["en", "a", "and", "b", "a,", "b", "or", "c", "False"]




# -- wrong kinds of input and the translator as a value (issue 19) -----------------------------


@pytest.mark.parametrize("bad", ["5c", 12, b"5c", None, 12.0])
def test_a_card_that_is_not_a_card_is_a_type_error_naming_it(bad: object) -> None:
    t = translator("en")
    for call in (t.card_name, t.card):
        with pytest.raises(KowahTypeError) as raised:
            call(bad)  # type: ignore[arg-type]
        assert f"not {bad!r} of type {type(bad).__name__}" in str(raised.value)


def test_an_unknown_form_of_a_name_is_an_error() -> None:
    with pytest.raises(KowahError, match="'dative'"):
        translator("cs").card(Card.C5, "dative")  # type: ignore[arg-type]


def test_error_of_something_that_is_no_library_error() -> None:
    for bad in (ValueError("x"), None, "oops"):
        with pytest.raises(KowahTypeError, match=r"error\(\) describes a KowahError, not"):
            translator("it").error(bad)  # type: ignore[arg-type]


def test_event_of_something_that_is_no_event() -> None:
    with pytest.raises(KowahTypeError, match="describes an Event"):
        translator("en").event(("discard", 1, Card.C5))  # type: ignore[arg-type]


def test_translators_are_values_that_pickle_and_copy() -> None:
    import copy
    import pickle

    for language in LANGUAGES:
        for codes in (False, True):
            t = translator(language, codes=codes)
            for clone in (pickle.loads(pickle.dumps(t)), copy.copy(t), copy.deepcopy(t)):
                assert clone == t and hash(clone) == hash(t)
                assert clone.card(Card.C5, "object") == t.card(Card.C5, "object")
    assert Translator("cs") == translator("cs") and Translator("cs") != Translator("cs", codes=True)
    assert repr(translator("ms", codes=True)) == "Translator(language='ms', codes=True)"
    with pytest.raises(AttributeError):
        translator("en").language = "cs"  # type: ignore[misc]


@pytest.mark.parametrize(("args", "error"), [
    (("xx",), LocaleError), (("cs_CZ",), LocaleError), ((5,), KowahTypeError),
    (("cs", "yes"), KowahTypeError), (("cs", 1), KowahTypeError),
])
def test_a_translator_cannot_be_built_invalid(args: tuple[object, ...], error: type[Exception]) -> None:
    with pytest.raises(error):
        Translator(*args)  # type: ignore[arg-type]
    if len(args) == 2:
        with pytest.raises(KowahTypeError):
            translator(str(args[0]), codes=args[1])  # type: ignore[arg-type]


def test_refusals_name_cards_and_errors_keep_codes() -> None:
    """Said to a player, a refusal names the cards; a library error keeps the notation."""
    from kowah import Action, Reason, Refusal

    refusal = Refusal(Reason.NOT_IN_HAND, Action.discard(0, Card.RF), {"card": Card.RF})
    t = translator("it")
    assert t.refusal(refusal) == "la carta Fiore Rosso non è nella mano"
    assert t.error(IllegalActionError(refusal)) == (
        "il posto 0 non può scartare rf: la carta rf non è nella mano")
    waits = Refusal(Reason.SEVERAL_WAITS, Action.declare(0, None), {"waits": (Card.C5, Card.S5)})
    assert translator("en").refusal(waits) == (
        "the hand offers several waits (Five of Coins or Five of Strings); name one")


def test_czech_says_se_before_s_z_and_st() -> None:
    """The "with" form holds its preposition: Czech vocalises it before some words."""
    cs = translator("cs")
    assert cs.card(Card.C5, "with") == "s\xa0pětkou mincí"
    for card in (Card.C7, Card.S6, Card.M4, Card.OT, Card.GS):
        assert cs.card(card, "with").startswith("se\xa0"), card
    assert cs.event(Event("win", 1, Card.C7)) == "Hráč na místě\xa01 vyhrává se\xa0sedmičkou mincí."
    assert translator("en").card(Card.C7, "with") == "with the Seven of Coins"
