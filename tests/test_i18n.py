"""The text layer: locales, translators, card names, errors and outcomes (issue 3).

The rendering of the rules is tested in tests/test_rendering.py.
"""

from __future__ import annotations

import builtins
import subprocess
import sys
import warnings
from types import SimpleNamespace

import pytest

from kowah import Card, CardParseError, DrawnBy, IllegalActionError, KowahError, LocaleError, parse_cards
from kowah.errors import RecordError
from kowah.i18n import (
    LANGUAGES,
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
    ("it_CH.utf8", "it"), ("ms_MY", "ms"), ("ms", "ms"), ("en_GB", "en"), ("en", "en"),
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
    missing = object()
    before = vars(builtins).get("_", missing)
    _load_cache_clear()
    for language in LANGUAGES:
        translator(language).gettext("rules", "Claims")
    assert vars(builtins).get("_", missing) is before


def _load_cache_clear() -> None:
    from kowah import i18n

    i18n._load.cache_clear()


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
])
def test_card_name_examples(language: str, card: Card, full: str, short: str) -> None:
    t = translator(language)
    assert (t.card_name(card), t.card_name(card, short=True)) == (full, short)


def test_lists_and_numbers_follow_the_locale() -> None:
    assert translator("en").format_list(["a", "b", "c"]) == "a, b, and c"
    assert translator("it").format_list(["a", "b", "c"]) == "a, b e c"
    assert translator("es").format_list(["a", "b"], style="or") == "a o b"
    assert translator("ms").format_list(["a", "b", "c"]) == "a, b dan c"
    assert translator("cs").format_list(["a", "b"]).replace("\xa0", " ") == "a a b"
    assert translator("en").format_number(1234567) == "1,234,567"
    assert translator("it").format_number(1234567) == "1.234.567"
    assert translator("cs").format_number(1234).replace("\xa0", " ") == "1 234"


# --- errors and outcomes -------------------------------------------------------------------

def _error(text: str) -> KowahError:
    with pytest.raises(KowahError) as raised:
        parse_cards(text)
    return raised.value


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "unknown card code 'zz' (token 2)"),
    ("it", "codice di carta sconosciuto 'zz' (elemento 2)"),
    ("cs", "neznámý kód karty „zz“ (položka\xa02)"),
    ("ms", "kod kad tidak dikenali 'zz' (item 2)"),
    ("es", "código de carta desconocido 'zz' (elemento 2)"),
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
    ("en", "'ws' (token 2) is not in the Kowah deck"),
    ("it", "'ws' (elemento 2) non è nel mazzo Kowah"),
    ("cs", "balíček Kowah nemá kartu „ws“ (položka\xa02)"),
    ("ms", "'ws' (item 2) tiada dalam dek Kowah"),
    ("es", "'ws' (elemento 2) no está en la baraja Kowah"),
])
def test_pack_names_in_errors_are_translated(language: str, expected: str) -> None:
    assert translator(language).error(_error("5c ws")) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "seat 1 cannot discard 5c: it is seat 2's turn"),
    ("it", "il posto 1 non può scartare 5c: è il turno del posto 2"),
    ("cs", "místo\xa01 nemůže odhodit 5c: na tahu je místo\xa02"),
    ("ms", "tempat duduk 1 tidak boleh membuang 5c: sekarang giliran tempat duduk 2"),
    ("es", "el asiento 1 no puede descartar 5c: es el turno del asiento 2"),
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


def _outcome(result: str, by: str | None = None) -> SimpleNamespace:
    win = result == "win"
    multiplier = {"self-draw": 3, "discard": 2, "draw-claim": 1}.get(by or "")
    return SimpleNamespace(result=result, winner=2 if win else None, by=by,
                           multiplier=multiplier, card=Card.C5 if win else None)


@pytest.mark.parametrize(("language", "by", "expected"), [
    ("en", "self-draw", "Seat 2 wins by self-draw with 5c, ×3"),
    ("en", "discard", "Seat 2 wins by claiming the discard 5c, ×2"),
    ("en", "draw-claim", "Seat 2 wins by claiming the stock draw 5c, ×1"),
    ("it", "self-draw", "Il posto 2 vince con pescata propria: 5c, ×3"),
    ("cs", "discard", "Hráč na místě\xa02 vyhrává nárokem na odhozenou kartu 5c, ×2"),
    ("ms", "draw-claim", "Tempat duduk 2 menang dengan menuntut cabutan stok 5c, ×1"),
    ("es", "self-draw", "El asiento 2 gana por robo propio con 5c, ×3"),
])
def test_outcome_wins(language: str, by: str, expected: str) -> None:
    assert translator(language).outcome(_outcome("win", by)) == expected


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "The deal is drawn: the stock ran out."),
    ("it", "La smazzata finisce patta: il tallone è esaurito."),
    ("cs", "Rozdání končí nerozhodně: talon došel."),
    ("ms", "Pusingan berakhir seri: stok sudah habis."),
    ("es", "La ronda termina en tablas: se ha agotado el mazo."),
])
def test_outcome_drawn(language: str, expected: str) -> None:
    assert translator(language).outcome(_outcome("drawn")) == expected


def test_outcome_from_the_deal_module() -> None:
    from kowah import Outcome

    assert translator("en").outcome(Outcome.win(1, "discard", Card.RF)) == (
        "Seat 1 wins by claiming the discard rf, ×2")
    drawn = Outcome.drawn(DrawnBy.EXHAUSTION)
    assert translator("es").outcome(drawn).startswith("La ronda termina en tablas")


def test_unknown_outcome_is_an_error() -> None:
    with pytest.raises(KowahError, match="in-progress"):
        translator("en").outcome(_outcome("in-progress"))


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
            assert str(event.card) in told and t.card_name(event.card) in told
        if event.seat == 0 and event.kind != "drawn":
            assert told != onlooker  # "You draw…" against "Seat 0 draws…"
        elif event.seat is not None:
            assert str(event.seat) in told
    assert {"draw", "discard", "declare"} <= kinds and kinds & {"win", "drawn"}


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
    """kowah check in English loads no Babel (start-up time, issue 10)."""
    import subprocess
    import sys

    code = ("import sys; from kowah.i18n import translator\n"
            "t = translator('en_GB.UTF-8')\n"
            "print(t.language, t.format_list(['a', 'b']), t.format_list(['a', 'b', 'c'], style='or'),\n"
            "      any(name.split('.')[0] == 'babel' for name in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split() == ["en", "a", "and", "b", "a,", "b,", "or", "c", "False"]


