"""The measured figures the documentation shows come from the benchmarks' results files
(``benchmarks/results/*.json``, put into the pages by ``docs/_ext/kowah_figures.py``): no page
writes one by hand, every figure a page asks for exists, and the deterministic ones (the
players' ladder, the ceiling's variants, on fixed seeds) are still what the code gives."""

from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import kowah_figures
import pytest
from kowah_figures import FigureError, figure, load, source
from support import load_file

from kowah.simulation import simulate

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RESULTS = ROOT / "benchmarks" / "results"

ROLE = re.compile(r":measured(-source)?:`([^`]*)`")
INLINE_LITERAL = re.compile(r"``[^`]+``")
# A number with a unit of measure (a share, a time, a size, a rate, a ratio), or a range of them.
MEASURED = re.compile(
    r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:\s?[–-]\s?\d[\d,]*(?:\.\d+)?)?"
    r"(?:[x×](?!\w)|\s?(?:%|ms\b|µs\b|us\b|[MKk]B\b|times (?:as|the)\b|steps?/s\b|deals/s\b"
    r"|(?:actions|deals|steps) (?:a|per) second\b|s of CPU|seconds of CPU))")
# Not measurements: the confidence level of every interval, par (a third), whole-range settings
# (the sliders' 0 %, 50 % and 100 %, a picture's width).
NOT_MEASURED = {"95%", "33.3%", "0 %", "50 %", "100 %", "100%"}
# A target or a setting states what is asked for, not what was measured.
SPECIFIED = re.compile(r"\b(target|targets|at most|at least|default|limit)\b[^.;:]*$", re.IGNORECASE)


def pages() -> dict[str, str]:
    """Every page of the documentation (each language's), the README and the contributing guide."""
    paths = [*DOCS.rglob("*.rst"), ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
    return {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
            for path in paths if "_build" not in path.parts}


def hand_written(text: str) -> list[str]:
    """The measured figures *text* states by hand: outside the ``:measured:`` roles and the
    inline literals (commands, formats), and not a target or a setting.

    >>> hand_written("hard wins :measured:`players/hard.share`; a p99 of 17.7 ms")
    ['17.7 ms']
    >>> hand_written("target: a p99 of at most 50 ms; the 95% interval; ``43.6–48.0%``")
    []
    """
    text = INLINE_LITERAL.sub("", ROLE.sub("", text))
    found = []
    for match in MEASURED.finditer(text):
        sentence = text[max(0, match.start() - 80):match.start()].split("\n\n")[-1]
        if match[0] not in NOT_MEASURED and not SPECIFIED.search(sentence):
            found.append(match[0])
    return found


def test_no_page_writes_a_measured_figure_by_hand() -> None:
    found = {name: figures for name, text in pages().items() if (figures := hand_written(text))}
    assert found == {}, "write these with :measured:`FILE/KEY` from benchmarks/results/"


def test_the_check_finds_the_figures_a_page_could_write_by_hand() -> None:
    text = ("a p99 of 36–59 ms at 1,030 actions a second; 7,529 steps/s, 4.50x the baseline; "
            "hard wins 32.8% (31.7–34.0%); about 0.6 MB; 182 µs per action")
    assert hand_written(text) == ["36–59 ms", "1,030 actions a second", "7,529 steps/s", "4.50x",
                                  "32.8%", "31.7–34.0%", "0.6 MB", "182 µs"]


def test_every_figure_a_page_shows_has_its_results_file_and_key() -> None:
    used = 0
    for name, text in pages().items():
        for match in ROLE.finditer(text):
            used += 1
            if match[1]:  # :measured-source:`FILE`
                assert source(match[2]), (name, match[0])
            else:
                file, _, key = match[2].partition("/")
                assert figure(file, key), (name, match[0])
    assert used >= 50


def test_every_results_file_says_where_its_figures_come_from_and_is_used() -> None:
    shown = "\n".join(pages().values())
    files = sorted(RESULTS.glob("*.json"))
    assert len(files) >= 4
    for path in files:
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["format"] == "kowah-figures/1", path.name
        assert record["command"] and re.fullmatch(r"\d{4}-\d\d-\d\d", record["date"]), path.name
        assert "load" in record["machine"] or "cores" in record["machine"], path.name
        assert record["figures"] and all(isinstance(value, str) and value
                                         for value in record["figures"].values()), path.name
        assert f"`{path.stem}/" in shown, f"{path.name}: no page shows its figures"


def test_a_missing_file_or_figure_is_an_error_that_names_it() -> None:
    with pytest.raises(FigureError, match=r"no results file nothing-here\.json"):
        figure("nothing-here", "share")
    with pytest.raises(FigureError, match=r"players\.json has no figure 'nothing'"):
        figure("players", "nothing")
    with pytest.raises(FigureError, match="lower-case letters"):
        load("../pyproject")


def test_the_extension_examples_run() -> None:
    assert doctest.testmod(kowah_figures).failed == 0


def test_the_ladder_is_still_what_the_players_give() -> None:
    """The players are seeded, so each row's first deals give the wins the benchmark recorded
    with them; a change of the players that moves the ladder fails here until
    ``python benchmarks/players.py --write`` is run again."""
    check = load("players")["check"]
    assert len(check["rows"]) == 9
    for row in check["rows"]:
        result = simulate(check["deals"], row["seats"], seed=row["seed"])
        assert result.wins[0] == row["wins"], row


def test_the_ladder_figures_are_the_counts_formatted() -> None:
    figures = load("players")["figures"]
    deals = int(figures["deals"].replace(",", ""))
    for level in ("hard", "normal", "easy", "random", "hard-vs-normal"):
        wins = int(figures[f"{level}.wins"].replace(",", ""))
        assert figures[f"{level}.share"] == f"{wins / deals:.1%}", level
    players_page = (DOCS / "reference" / "players.rst").read_text(encoding="utf-8")
    commands = re.findall(r"kowah simulate --deals (\d+) --seats\s+\S+ --seed (\d+)", players_page)
    assert commands and {(int(n), int(s)) for n, s in commands} == {(deals, int(figures["seed"]))}


def test_the_levels_beside_the_learnt_agents_are_still_what_the_code_gives() -> None:
    check = load("levels")["check"]
    assert len(check["rows"]) == 6
    for row in check["rows"]:
        assert simulate(check["deals"], row["seats"], seed=check["seed"]).wins[0] == row["wins"], row


def test_the_ceiling_variants_are_still_what_the_code_gives() -> None:
    ceiling = load_file(ROOT / "benchmarks" / "ceiling.py", "kowah_ceiling_figures")
    check = load("ceiling")["check"]
    assert set(check["wins"]) == set(ceiling.VARIANTS)
    for name, wins in check["wins"].items():
        assert sum(ceiling.play(name, index) for index in range(check["deals"])) == wins, name


def test_a_benchmark_writes_a_results_file_the_extension_reads(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    results = load_file(ROOT / "benchmarks" / "results.py", "kowah_bench_results")
    monkeypatch.setattr(results, "RESULTS", tmp_path)
    monkeypatch.setattr("sys.argv", [str(ROOT / "benchmarks" / "players.py"), "--write"])
    path = results.write("players", {"deals": "6,000"}, {"deals": 1})
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["command"] == "python benchmarks/players.py --write"
    assert record["figures"] == {"deals": "6,000"} and record["check"] == {"deals": 1}
    assert "cores, load average" in record["machine"]
    monkeypatch.setattr(kowah_figures, "RESULTS", tmp_path)
    kowah_figures.load.cache_clear()
    try:
        assert figure("players", "deals") == "6,000"
    finally:
        kowah_figures.load.cache_clear()
