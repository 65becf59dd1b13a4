"""One text layer for every sentence (issue 26): the page's scripts build no sentence, every
message of the catalogue renders without a Python form in every language, and each name
takes the form its sentence asks for (a card as object, a seat as subject, "you")."""

from __future__ import annotations

import io
import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from kowah import Action, ActionKind, Card
from kowah.errors import KowahError
from kowah.i18n import LANGUAGES, Named, translator
from kowah.terminal import play_in_terminal
from kowah.web.game import Game
from kowah.web.said import card_sentences, state_sentences
from kowah.web.text import page_strings

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "kowah" / "web" / "static" / "js"

# -- the page's scripts build no sentence ---------------------------------------------------

#: What names a card, a seat or a person in the scripts.
NAME = re.compile(r"words\.(?:card|cardName|said|cards)\(|players\[|shortName\(|\bsaid\b|\.name\b")
TEMPLATE = re.compile(r"`(?:[^`\\]|\\.)*`", re.S)
CONCAT = re.compile(r"(?:words\.(?:t|card|cardName|said|count)\([^()]*\)|players\[[^\]]*\])\s*\+"
                    r"|\+\s*(?:words\.(?:t|card|cardName|said|count)\(|players\[)")


def _calls(text: str, opening: str) -> list[str]:
    """The argument text of each call that starts with *opening* (``words.t(``)."""
    found = []
    for match in re.finditer(re.escape(opening), text):
        depth, index = 1, match.end()
        while depth and index < len(text):
            depth += {"(": 1, ")": -1}.get(text[index], 0)
            index += 1
        found.append(text[match.end():index - 1])
    return found


def sentence_building(source: str) -> list[str]:
    """The places in a script's *source* that join a name to text: a template literal or a
    ``+`` with a name in it, or a translated message filled with a name by the script."""
    found = []
    for literal in TEMPLATE.findall(source):
        if any(NAME.search(part) for part in re.findall(r"\$\{(.*?)\}", literal, re.S)):
            found.append(literal)
    found += [match.group(0) for match in CONCAT.finditer(source)]
    found += [f"words.t({args})" for args in _calls(source, "words.t(") if NAME.search(args)]
    return found


def test_the_check_finds_the_sentences_the_page_used_to_build() -> None:
    built = ["title: `${words.card(code)} (${index + 1})`,",
             'const name = words.t("new-card.label", { card: words.card(code) });',
             "const who = state.players[seat] + ' (' + words.t(\"friends.you\") + ')';",
             "return words.t(\"status.wait\", { name: shown.players[m] });"]
    for line in built:
        assert sentence_building(line), line
    fine = ['const src = `/cards/${code}.svg?lang=${lang}`;', 'words.t("stock")',
            'element("span", { text: words.said("take", code) })']
    assert [line for line in fine if sentence_building(line)] == []


@pytest.mark.parametrize("script", sorted(path.name for path in JS.glob("*.js")))
def test_no_script_joins_a_name_to_translated_text(script: str) -> None:
    assert sentence_building((JS / script).read_text(encoding="utf-8")) == []


# -- no Python form reaches a person --------------------------------------------------------

PYTHON_FORM = re.compile(r"Card\.|\(\s*[^()]*,\)|\bNone\b|[{}]")
#: The same forms one by one: a message's own text may use one on purpose (a programmer's
#: error naming ``Card.parse`` or ``None``); a value must never bring one in.
FORMS = [re.compile(pattern) for pattern in (r"Card\.", r"\(\s*[^()]*,\)", r"\bNone\b", r"[{}]")]


def _sample(field: str, conversion: str | None, context: str) -> object:
    """A sample value of a placeholder, of the type its name says."""
    if conversion:  # {value!r}: a bad value shown as the program reads it
        return "bad"
    if field in ("cards", "waits", "group", "pair"):
        return (Card.RF, Card.C5)
    if "card" in field or field == "wait":
        return Card.RF
    if field in ("name", "player", "names", "who"):
        return Named("Jana", "Jana") if context == "web" else "Jana"
    if field in ("action",):
        return Action.discard(0, Card.C5)
    if field in ("pack",):
        return "kowah"
    return 2


def _catalogue() -> list[tuple[str, str, str | None]]:
    """Every message of the catalogue's template: context, message and plural (or ``None``)."""
    with (ROOT / "locales" / "kowah.pot").open("rb") as handle:
        template = read_po(handle)
    found: list[tuple[str, str, str | None]] = []
    for message in template:
        if not message.id or message.context in ("argparse", None):
            continue
        if isinstance(message.id, (tuple, list)):
            found.append((str(message.context), str(message.id[0]), str(message.id[1])))
        else:
            found.append((str(message.context), str(message.id), None))
    return found


#: Messages whose braces are literal text (none yet): (context, message).
LITERAL_BRACES: set[tuple[str, str]] = set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_renders_without_a_python_form(language: str) -> None:
    """Each message of the catalogue, filled through the text layer with sample values of its
    placeholders' types (cards, tuples of cards, seats, names, numbers)."""
    t = translator(language)
    checked = alternatives = 0
    for context, message, plural in _catalogue():
        alternatives += "|or}" in message or ":or}" in message  # the "or" list form is covered
        fields = [(name, conversion) for _, name, _, conversion in string.Formatter().parse(message) if name]
        values = {name: _sample(name, conversion, context) for name, conversion in fields}
        for n in ((1, 2, 5) if plural else (None,)):
            if n is not None:
                values["count"] = n
            if context == "error":
                text = t.error(KowahError(message, **values))
            elif n is None or plural is None:
                text = t.sentence(context, message, **values)
            else:
                text = t.nsentence(context, message, plural, n, **values)
            if (context, message) in LITERAL_BRACES:
                text = text.replace("{", "").replace("}", "")
            literal = "".join(part for part, *_ in string.Formatter().parse(message))
            bad = [form.pattern for form in FORMS if form.search(text) and not form.search(literal)]
            assert bad == [], (language, context, message, text)
            checked += 1
    assert checked > 800 and alternatives >= 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_sentence_of_the_page_renders_without_a_python_form(language: str) -> None:
    strings = page_strings(translator(language))
    texts = [text for table in (strings["said"], strings["said.codes"]) for row in table.values()
             for text in row.values()]
    assert len(texts) == 2 * 33 * len(strings["said"])
    assert [text for text in texts if PYTHON_FORM.search(text.replace("{position}", ""))] == []


def _ready_with_one_wait(seed: int) -> tuple[str, list[str], list[str]] | None:
    """What a person (choosing as a ``normal`` AI) types up to the first time their hand is
    ready, the waits, and their hand; ``None`` when it never is."""
    from transcripts import script

    lines, deal = script(seed, until=bool)
    if deal.is_over:
        return None
    waits = [str(action.card) for action in deal.legal_actions(0) if action.kind is ActionKind.DECLARE]
    return lines, waits, [str(card) for card in deal.hand(0)]


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_terminal_names_the_waits_as_codes_not_as_a_tuple(language: str) -> None:
    for seed in range(60):
        found = _ready_with_one_wait(seed)
        if found and any(card not in found[1] for card in found[2]):
            break
    else:
        raise AssertionError("no seed offers a ready hand")
    lines, waits, hand = found
    wrong = next(card for card in hand if card not in waits)
    out = io.StringIO()
    play_in_terminal(translator(language), seed=seed, opponents="normal", record_path=None,
                     stdin=io.StringIO(lines + f"c {wrong}\nq\n"), stdout=out, color=False, pace=0)
    text = out.getvalue()
    assert "Card." not in text and ",)" not in text
    assert re.search(rf"\b{wrong}\b.*\b{waits[0]}\b", text), text[-600:]


# -- each name in the form its sentence asks for --------------------------------------------


def _state(language: str, seat: int | None = 0) -> dict[str, object]:
    game = Game.new(seed=3, opponents="normal", lang=language)
    return game.state(language, seat=seat)


def test_the_page_names_cards_with_their_articles_where_the_language_has_them() -> None:
    it, es, cs = (card_sentences(translator(lang)) for lang in ("it", "es", "cs"))
    assert it["take"]["6s"] == "Prendi il sei di filze"
    assert es["take"]["6s"] == "Tomar el seis de sartas"
    assert it["discard"]["ot"] == "Scarta il Vecchio Mille"
    assert cs["discard"]["5c"] == "Odhodit pětku mincí"
    assert es["new"]["1s"] == "as de sartas (la carta recién robada)"  # nothing agrees with the card
    assert card_sentences(translator("en", codes=True))["take"]["5c"] == "Take the Five of Coins (5c)"


@pytest.mark.parametrize(("language", "subject"), [
    ("en", "Seat 1 is playing…"), ("it", "Il posto 1 sta giocando…"), ("es", "El asiento 1 está jugando…"),
    ("cs", "Hraje: Místo\xa01 · AI (normální)…"), ("ms", "Pemain di tempat duduk 1 sedang bermain…"),
    ("id", "Pemain di kursi 1 sedang bermain…")])
def test_the_status_line_names_the_seat_as_its_language_asks(language: str, subject: str) -> None:
    said = _state(language)["said"]
    assert isinstance(said, dict)
    assert said["waiting"][1] == subject and said["waiting"][0] is None


def test_you_take_the_second_person_and_are_never_you_you() -> None:
    state = {"seat": 0, "players": ["You", "Seat 1 · AI (normal)", "Bo"],
             "seats": [{"name": "Jana"}, {"name": None}, {"name": "Bo"}], "hand": ["5c"],
             "discards": [[], [], []], "declared": ["5c", None, "9s"], "legal": [], "outcome": None}
    said = state_sentences(translator("en"), state)
    assert said["waits"] == ("You have declared checki and wait for the Five of Coins. "
                             "Bo has declared checki and waits for the Nine of Strings.")
    assert said["people"] == ["Jana (you)", "Seat 1 · AI (normal)", "Bo"]
    nameless = state_sentences(translator("es"), {**state, "seats": []})
    assert nameless["people"][0] == "You" or "(" not in nameless["people"][0]


def test_your_own_discards_and_hand_are_yours_never_of_you() -> None:
    """The accessible names of the viewer's own pile and of their hand in the review take the
    second person ("Your discards: …"), never the label ("Discards of You: …")."""
    from kowah.web.said import review_sentences

    for language in LANGUAGES:
        t = translator(language)
        state = _state(language)
        said, players = state["said"], state["players"]
        assert isinstance(said, dict) and isinstance(players, list)
        assert said["pile"][0] == t.gettext("web", "Your discards: {count}")
        assert said["pile"][1] == t.sentence("web", "Discards of {name}: {count}", count="{count}",
                                             name=Named(players[1], ""))
        labels = [t.seat_name(0, viewer=0), t.seat_name(1), "Bo"]
        review = review_sentences(t, labels, viewer=0)
        assert review["hand-of"][0] == t.gettext("web", "Your hand")
        assert review["discards-of"][0] == t.gettext("web", "Your discards")
        assert review["hand-of"][2] == t.sentence("web", "Hand of {name}", name=Named("Bo", "Bo"))
    said = _state("en")["said"]
    assert isinstance(said, dict)
    assert [text for text in said["pile"] if "of You" in text] == []


def test_the_friends_badges_agree_with_nobody() -> None:
    """Beside every name, women's too: no masculine-only participle (cs, it, es)."""
    cs, it, es = (page_strings(translator(lang)) for lang in ("cs", "it", "es"))
    assert [cs[key] for key in ("friends.online", "friends.offline", "friends.not-here", "friends.gone")] == [
        "online", "offline", "ještě tu není", "už u\xa0stolu nesedí"]
    assert it["friends.not-here"] == "non ancora al tavolo"
    assert (es["friends.online"], es["friends.offline"]) == ("en línea", "sin conexión")


@pytest.mark.parametrize(("language", "said"), [
    ("en", ["Seat 1 joins the table.", "Seat 1 leaves the table: an AI plays on for them."]),
    ("it", ["Il posto 1 è al tavolo.",
            "Il posto 1 lascia il tavolo: un'IA continua a giocare al suo posto."]),
    ("cs", ["Hráč na místě\xa01 přisedá ke stolu.", "Hráč na místě\xa01 odchází od stolu, dál hraje AI."]),
    ("ms", ["Pemain di tempat duduk 1 menyertai meja.",
            "Pemain di tempat duduk 1 meninggalkan meja: AI terus bermain untuknya."]),
    ("es", ["El asiento 1 ya está en la mesa.",
            "El asiento 1 deja la mesa: una IA sigue jugando en su lugar."]),
    ("id", ["Pemain di kursi 1 sudah duduk di meja.",
            "Pemain di kursi 1 meninggalkan meja: AI melanjutkan permainan untuknya."])])
def test_the_friends_table_events_name_a_seat_as_their_subject(language: str, said: list[str]) -> None:
    """A seat whose person gave no name is the subject of the table's sentences ("Il posto 1
    lascia il tavolo"), never its label ("Posto 1 · IA (normale)"), even once an AI plays it."""
    from webtools import client, key, new_game

    with client() as c:
        game = new_game(c, humans=3, names=["Ana"], seed=8)
        for seat, body in ((1, {}), (2, {"name": "Bo"})):
            c.post(f"/api/games/{game['id']}/join", json=body, headers=key(game, seat)).raise_for_status()
        c.post(f"/api/games/{game['id']}/leave", json={}, headers=key(game, 1)).raise_for_status()
        state = c.get(f"/api/games/{game['id']}", headers=key(game), params={"lang": language}).json()
    events = [event for event in state["events"] if event["seat"] == 1 and event["kind"] in ("join", "leave")]
    assert [event["text"] for event in events] == said
