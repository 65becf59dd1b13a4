"""The page's words and the review endpoint, without a browser: the key letters and the
command box's words of every language, the page's placeholders, and ``POST /api/review``."""

from __future__ import annotations

import json
import random
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from webtools import client as table_client

from kowah import Action, Card, Deal, Record
from kowah.i18n import LANGUAGES, translator
from kowah.players import make_player
from kowah.web import review
from kowah.web.game import Game
from kowah.web.page import render_page
from kowah.web.text import COMMANDS, KEYS, MESSAGES, command_words, key_letters, page_strings

with warnings.catch_warnings():  # Starlette's TestClient warns that it will need httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

CODE = re.compile(r"(?<![\w/])([1-9][csm]|ot|rf|wf|ws|gs|mk)(?!\w)")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_six_different_key_letters(lang: str) -> None:
    keys = key_letters(translator(lang))
    assert set(keys) == set(KEYS)
    assert all(len(key) == 1 and key.isalpha() and key.isupper() for key in keys.values()), keys
    assert len(set(keys.values())) == len(keys), keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_command_word_means_two_things(lang: str) -> None:
    t = translator(lang)
    meanings: dict[str, str] = {}
    for key in COMMANDS:
        words = command_words(t, key)
        assert words and all(word == word.lower() and word.count(" ") <= 1 for word in words)
        for english in COMMANDS[key].split("|"):
            assert english in words  # English is understood everywhere
        for word in words:
            assert meanings.setdefault(word, key) == key, (word, meanings[word], key)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_page_fills_every_placeholder_and_hands_its_words_to_the_scripts(lang: str) -> None:
    t = translator(lang)
    page = render_page(t)
    assert re.search(r"\$[a-z_]", page) is None
    data = json.loads(page.split('id="kowah-data">', 1)[1].split("</script>", 1)[0])
    assert data["lang"] == lang and data["cookie"] == "kowah-lang"
    strings = data["strings"]
    assert strings == json.loads(json.dumps(page_strings(t)))
    assert strings["cards"]["5c"] == t.card_name(Card.C5)
    assert strings["count.stock"]["forms"]


SCRIPTS = Path(review.__file__).resolve().parent / "static" / "js"


def test_the_page_scripts_are_small_modules_sharing_one_set_of_constants() -> None:
    scripts = {path.name: path.read_text(encoding="utf-8") for path in sorted(SCRIPTS.glob("*.js"))}
    assert len(scripts) >= 10
    sizes = {name: len(text.splitlines()) for name, text in scripts.items()}
    assert max(sizes.values()) <= 250, sizes
    # ES modules loaded by the browser as they are: every module but the entry point exports.
    imported = set(re.findall(r'from "\./([\w.]+)"', "".join(scripts.values())))
    assert imported == set(scripts) - {"main.js"}
    assert all("export " in text for name, text in scripts.items() if name != "main.js")
    # The storage keys are named in constants.js only; the language cookie's name comes from
    # the server with the page's data.
    keys = re.findall(r'"(kowah-[\w-]+)"|`(kowah-[\w-]+):', scripts["constants.js"])
    assert len(keys) >= 3
    for name, text in scripts.items():
        if name != "constants.js":
            assert not any(key in text for pair in keys for key in pair if key), name
        assert "kowah-lang" not in text, name


# -- POST /api/review ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The whole application, its lifespan running (the review runs in its game threads)."""
    with table_client() as c:
        yield c


def a_deal(seed: int) -> Deal:
    deal = Deal.shuffled(seed=seed)
    player = make_player("easy", random.Random(seed))
    while not deal.is_over:
        seat = deal.to_move()[0]
        view = deal.observation(seat)
        deal.apply(player.choose(view, view.legal_actions))
    return deal


def test_the_review_of_a_whole_deal(client: TestClient) -> None:
    deal = a_deal(3)
    record = Record.from_deal(deal).to_dict()
    answer = client.post("/api/review?lang=cs", json={"record": record, "seat": 0})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    steps = data["steps"]
    assert data["format"] == review.FORMAT and data["lang"] == "cs" and data["seat"] == 0
    assert data["outcome"] == dict(deal.outcome.as_dict())  # type: ignore[union-attr]
    assert steps[0]["stock"] == 96 and steps[-1]["stock"] == deal.stock_count
    assert len(steps) >= len(deal.history) + 1
    assert [step["index"] for step in steps] == list(range(len(steps)))
    for step in steps:
        # Every hand face up; every card is somewhere (hands, discards, stock).
        held = sum(len(hand) for hand in step["hands"]) + sum(len(pile) for pile in step["discards"])
        assert held + step["stock"] == 120
        assert [len(hand) for hand in step["hands"]] == step["hand_sizes"]
        assert all(not CODE.search(text) for text in step["text"]), step["text"]
    decisions = [step for step in steps if step["coach"]]
    assert decisions and all(step["seat"] == 0 for step in decisions)
    mine = [action for action in deal.history if action.seat == 0]
    assert len(decisions) >= len(mine)
    for step in decisions:
        coach = step["coach"]
        assert coach["did"] == step["action"] and coach["lines"]
        assert coach["agrees"] == (coach["advised"] == coach["did"])
        if step["action"]["do"] == "discard":
            # How far from ready each choice left the hand, and which one was yours.
            assert [choice["chosen"] for choice in coach["choices"]].count(True) == 1
            assert all(choice["distance"] >= 0 and choice["text"] for choice in coach["choices"])


def test_the_review_names_cards_and_may_add_codes(client: TestClient) -> None:
    record = Record.from_deal(a_deal(5)).to_dict()
    plain = client.post("/api/review?lang=en", json={"record": record}).json()
    coded = client.post("/api/review?lang=en&codes=1", json={"record": record}).json()
    plain_text = " ".join(" ".join(step["text"]) for step in plain["steps"])
    coded_text = " ".join(" ".join(step["text"]) for step in coded["steps"])
    assert CODE.search(plain_text) is None and CODE.search(coded_text) is not None


def test_a_friends_record_names_its_people(client: TestClient) -> None:
    record: dict[str, Any] = dict(Record.from_deal(a_deal(8)).to_dict())
    record["tags"] = {"seat0": "Ana", "seat1": "Bo"}
    data = client.post("/api/review?lang=en", json={"record": record, "seat": 1}).json()
    assert data["players"] == ["Ana", "You", "Seat 2"]
    assert {step["seat"] for step in data["steps"] if step["coach"]} == {1}


@pytest.mark.parametrize("lang", ["cs", "es"])
def test_a_tables_record_is_reviewed_in_the_reviews_language(client: TestClient, lang: str) -> None:
    """The table tags a record with its English labels; the review tells them in its language."""
    t = translator(lang)

    def ai(level: str) -> str:
        return t.gettext("web", MESSAGES["ai"]).format(strength=t.level_name(level))

    record: dict[str, Any] = dict(Record.from_deal(a_deal(8)).to_dict())
    cases = [(Game.new(seed=1, opponents="normal"), 0, [t.seat_name(0, viewer=0),
              f"{t.seat_name(1)} · {ai('normal')}", f"{t.seat_name(2)} · {ai('normal')}"]),
             (Game.new(seed=1, opponents="hard", humans=2, names=["Ana", None]), 1,
              ["Ana", t.seat_name(1, viewer=1), f"{t.seat_name(2)} · {ai('hard')}"])]
    for game, seat, players in cases:
        record["tags"] = game.tags()
        data = client.post(f"/api/review?lang={lang}", json={"record": record, "seat": seat}).json()
        assert data["players"] == players
        assert not any("Seat" in line or "AI" in line for step in data["steps"] for line in step["text"])
    record["tags"] = {"seat0": "Bo · AI (easy)"}  # a person who left: an AI played on
    assert client.post(f"/api/review?lang={lang}", json={"record": record}).json()["players"][0] == \
        t.seat_name(0, viewer=0)
    data = client.post(f"/api/review?lang={lang}", json={"record": record, "seat": 1}).json()
    assert data["players"][0] == f"Bo · {ai('easy')}"


@pytest.mark.parametrize(("body", "status", "code"), [
    (b"{", 400, "bad-json"),
    (b"[]", 400, "not-an-object"),
    (b'{"record": {}, "seat": 3}', 400, "bad-field"),
    (b'{"record": {"format": "kowah-record/1", "deck": ["5c"], "first": 0}}', 400, "bad-record"),
    (b'{"record": 12}', 400, "bad-record"),
    (b" " * (review.MAX_BODY + 1), 413, "too-large"),
])
def test_bad_requests_get_clear_errors(client: TestClient, body: bytes, status: int, code: str) -> None:
    answer = client.post("/api/review?lang=es", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == status
    assert answer.json()["error"] == code and answer.json()["message"]


def test_an_illegal_action_is_named_by_its_index(client: TestClient) -> None:
    deal = Deal.shuffled(seed=1)
    seat = deal.turn
    record = Record(deal.deck, deal.first, [Action.draw(seat)]).to_dict()
    record["actions"].append({"seat": (seat + 1) % 3, "do": "draw"})  # not that seat's turn
    answer = client.post("/api/review", json={"record": record})
    assert answer.status_code == 400 and answer.json()["error"] == "bad-record"
    assert "1" in answer.json()["message"]


def test_the_docs_list_each_languages_keys() -> None:
    """docs/browser.rst's table of keys says what the catalogues say."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "browser.rst").read_text(encoding="utf-8")
    rows: list[list[str]] = [["action"]]
    for line in text.split("   * - action\n", 1)[1].split("\n\n", 1)[0].splitlines():
        if line.startswith("   * - "):
            rows.append([line.removeprefix("   * - ").strip()])
        elif line.startswith("     - "):
            rows[-1].append(line.removeprefix("     - ").strip())
    languages, body = rows[0][1:], rows[1:]
    names = {"draw": "draw", "take": "take", "declare checki": "declare", "pass": "pass", "hint": "hint",
             "new deal": "new"}
    assert sorted(languages) == sorted(LANGUAGES)
    assert sorted(names[row[0]] for row in body) == sorted(KEYS)
    for row in body:
        for lang, letter in zip(languages, row[1:], strict=True):
            assert key_letters(translator(lang))[names[row[0]]] == letter, (lang, row[0])


def test_the_table_serves_the_review_with_its_guards() -> None:
    with table_client() as table:
        record = Record.from_deal(a_deal(2)).to_dict()
        answer = table.post("/api/review", json={"record": record})
        assert answer.status_code == 200 and answer.headers["cache-control"] == "no-store"
        assert answer.json()["steps"]
        # Like every change, a review must come as JSON from the table's own origin.
        plain = table.post("/api/review", content=b"{}", headers={"content-type": "text/plain"})
        assert plain.status_code == 415
        foreign = table.post("/api/review", json={"record": record},
                             headers={"origin": "https://evil.example"})
        assert foreign.status_code == 403


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_names_seats_in_the_librarys_one_wording(language: str) -> None:
    t = translator(language)
    strings = page_strings(t)
    assert [strings[f"seat.{seat}"] for seat in range(3)] == [t.seat_name(seat) for seat in range(3)]
    assert "you" not in MESSAGES and "seat" not in MESSAGES  # no copy of the library's words
