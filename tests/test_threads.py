"""Right answers from every thread, from the first call.

The ready-hand index and the tables behind the hand functions are built lazily. Each test here
starts fresh interpreters (nothing built yet) in which several threads make their first calls
at the same moment, with the interpreter switching threads as often as it can, and compares
every answer with the one the same call gives in this (warm, single-threaded) process. Before
the index was built under a lock, some runs answered ``waits()`` with an empty set for
thousands of calls, and ``simulate`` on a thread pool crashed in the players' heuristic.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from kowah import KOWAH_DECK, MONEY_PACK, Card, Deal, Pack
from kowah.hands import distance, improvements, is_ready, ready_hands, splits, waits
from kowah.players import make_player
from kowah.simulation import play_deal, simulate

RUNS = 12
THREADS = 4
# Half the runs widen the race's window: each thread reading the index's file is held
# there for 5 ms (the others arrive meanwhile, as they may on a busy machine); the other half
# run untouched.
MODES = ("widen", "plain")

# A child process: THREADS threads wait at a barrier, then each makes its first calls. It
# prints, as JSON, what each thread answered (one list per thread), for the parent to check.
_HANDS_CHILD = textwrap.dedent("""
    import json, sys, threading
    sys.setswitchinterval(1e-6)
    from kowah import KOWAH_DECK, MONEY_PACK, Card, _ready_index
    from kowah.hands import distance, improvements, is_ready, ready_hands, splits, waits

    CASES = json.loads(sys.argv[1])
    WIDEN = sys.argv[3] == "widen"
    BUILT = []  # the packs whose ready index was built, once each if all is well

    class Counted(_ready_index.ReadyIndex):
        def __init__(self, data, keys=None, sieve=None):
            BUILT.append(len(data))
            super().__init__(data, keys, sieve)
    import time
    from kowah import _ready_index
    if WIDEN:  # hold each reader of the file, so that the others arrive meanwhile
        _read = _ready_index.read_data
        _ready_index.read_data = lambda pack: (time.sleep(0.005), _read(pack))[1]
    _ready_index.ReadyIndex = Counted
    PACKS = {"kowah": KOWAH_DECK, "money": MONEY_PACK}
    barrier = threading.Barrier(int(sys.argv[2]))
    answers = [None] * int(sys.argv[2])

    def cards(codes):
        return [Card[name] for name in codes]

    def work(slot):
        barrier.wait()
        found = []
        for pack_name, hand in CASES:
            pack, eight = PACKS[pack_name], cards(hand)
            found.append([
                is_ready(eight, pack), is_ready(tuple(eight), pack),
                sorted(card.name for card in waits(eight, pack)),
                distance(eight, pack), len(splits(eight, pack)),
                tuple(eight) in ready_hands(pack),
                sorted(card.name for card in improvements(eight, pack=pack)),
            ])
        answers[slot] = found

    threads = [threading.Thread(target=work, args=(slot,)) for slot in range(len(answers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps([answers, BUILT]))
""")

_PLAYERS_CHILD = textwrap.dedent("""
    import json, random, sys, threading
    sys.setswitchinterval(1e-6)
    from kowah import Deal
    from kowah.players import make_player
    from kowah.simulation import play_deal

    SEEDS = json.loads(sys.argv[1])
    WIDEN = sys.argv[2] == "widen"
    import time
    from kowah import _ready_index
    if WIDEN:  # hold each reader of the file, so that the others arrive meanwhile
        _read = _ready_index.read_data
        _ready_index.read_data = lambda pack: (time.sleep(0.005), _read(pack))[1]
    barrier = threading.Barrier(len(SEEDS))
    answers = [None] * len(SEEDS)

    def work(slot):
        barrier.wait()
        seed = SEEDS[slot]
        rng = random.Random(seed)
        players = [make_player(level, random.Random(seed * 10 + seat))
                   for seat, level in enumerate(("hard", "normal", "easy"))]
        deal = play_deal(players, Deal.shuffled(rng, first=seed % 3))
        answers[slot] = [str(action) for action in deal.history]

    threads = [threading.Thread(target=work, args=(slot,)) for slot in range(len(SEEDS))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps(answers))
""")

_SIMULATE_CHILD = textwrap.dedent("""
    import json, sys
    from concurrent.futures import ThreadPoolExecutor
    sys.setswitchinterval(1e-6)
    from kowah.simulation import simulate
    WIDEN = sys.argv[2] == "widen"
    import time
    from kowah import _ready_index
    if WIDEN:  # hold each reader of the file, so that the others arrive meanwhile
        _read = _ready_index.read_data
        _ready_index.read_data = lambda pack: (time.sleep(0.005), _read(pack))[1]

    with ThreadPoolExecutor(4) as pool:
        result = simulate(24, ["hard", "normal", "easy"], seed=int(sys.argv[1]), executor=pool, chunk=2)
    print(json.dumps(result.as_dict()))
""")


def _run(script: str, *args: str) -> Any:
    done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _hands(pack: Pack, rng: random.Random, count: int) -> list[list[str]]:
    """*count* hands of *pack*: ready ones (every other one) and random ones."""
    table = list(ready_hands(pack))
    found = []
    for number in range(count):
        hand = rng.choice(table) if number % 2 == 0 else tuple(sorted(rng.sample(pack.cards, 8)))
        found.append([card.name for card in hand])
    return found


def _expected(pack: Pack, hand: list[str]) -> list[object]:
    eight = [Card[name] for name in hand]
    return [
        is_ready(eight, pack), is_ready(tuple(eight), pack),
        sorted(card.name for card in waits(eight, pack)),
        distance(eight, pack), len(splits(eight, pack)), tuple(eight) in ready_hands(pack),
        sorted(card.name for card in improvements(eight, pack=pack)),
    ]


def test_the_hand_functions_answer_right_from_every_thread_from_the_first_call() -> None:
    """RUNS fresh processes; in each, THREADS threads make their first calls to every public
    hand function at once, on both shipped packs: not one answer differs from this process's."""
    rng = random.Random(29)
    cases = [("kowah", hand) for hand in _hands(KOWAH_DECK, rng, 120)]
    cases += [("money", hand) for hand in _hands(MONEY_PACK, rng, 40)]
    packs = {"kowah": KOWAH_DECK, "money": MONEY_PACK}
    expected = [_expected(packs[name], hand) for name, hand in cases]
    assert any(row[0] for row in expected) and not all(row[0] for row in expected)
    wrong = 0
    for run in range(RUNS):
        answers, built = _run(_HANDS_CHILD, json.dumps(cases), str(THREADS), MODES[run % 2])
        assert len(answers) == THREADS
        for found in answers:
            wrong += sum(row != want for row, want in zip(found, expected, strict=True))
        assert len(built) == 2  # one ready index for each pack, built once
    assert wrong == 0


def test_the_players_play_the_same_deals_from_every_thread_from_the_first_call() -> None:
    """Seeded players make the same moves in racing threads of a fresh process as here."""
    for run in range(RUNS // 2):
        seeds = [run * 10 + slot for slot in range(THREADS)]
        expected = []
        for seed in seeds:
            players = [make_player(level, random.Random(seed * 10 + seat))
                       for seat, level in enumerate(("hard", "normal", "easy"))]
            deal = play_deal(players, Deal.shuffled(random.Random(seed), first=seed % 3))
            expected.append([str(action) for action in deal.history])
        assert _run(_PLAYERS_CHILD, json.dumps(seeds), MODES[run % 2]) == expected


@pytest.mark.parametrize("seed", range(4))
def test_a_simulation_on_a_thread_pool_in_a_fresh_process_gives_the_serial_result(seed: int) -> None:
    with ThreadPoolExecutor(2) as pool:
        here = simulate(24, ["hard", "normal", "easy"], seed=seed, executor=pool, chunk=2).as_dict()
    assert here == simulate(24, ["hard", "normal", "easy"], seed=seed).as_dict()
    assert _run(_SIMULATE_CHILD, str(seed), MODES[seed % 2]) == json.loads(json.dumps(here))


# A child process for the text layer: THREADS threads make their first calls into it at once
# (translators, catalogues, Babel's locale data, lists, numbers, percentages), each starting with
# a different one. An import hook holds every Babel module's execution for 5 ms and notes when
# two threads execute Babel modules at the same moment: CPython 3.11's imports are not safe for
# that (a thread once died with ``KeyError: 'babel'`` in importlib), so the text layer imports
# Babel once, under a lock (kowah._babel). A thread's exception is printed, not swallowed.
_TEXT_CHILD = textwrap.dedent("""
    import importlib.abc, importlib.machinery, json, sys, threading, time, traceback
    sys.setswitchinterval(1e-6)
    running = {}  # thread -> how many Babel modules it is executing now
    overlaps = []

    class Held(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name.split(".")[0] != "babel":
                return None
            spec = importlib.machinery.PathFinder.find_spec(name, path)
            if spec is None or spec.loader is None:
                return spec
            run = spec.loader.exec_module

            def exec_module(module):
                me = threading.get_ident()
                if any(count for thread, count in list(running.items()) if thread != me):
                    overlaps.append(name)
                running[me] = running.get(me, 0) + 1
                try:
                    time.sleep(0.005)
                    run(module)
                finally:
                    running[me] -= 1
            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, Held())
    from kowah import Card
    from kowah._simulating import _percent
    from kowah.i18n import LANGUAGES, negotiate, translator

    REGIONS = json.loads(sys.argv[2])
    threads_count = int(sys.argv[1])
    barrier = threading.Barrier(threads_count)
    answers = [None] * threads_count
    errors = []
    threading.excepthook = lambda hook: errors.append("".join(traceback.format_exception(
        hook.exc_type, hook.exc_value, hook.exc_traceback))[-1500:])

    def work(slot):
        barrier.wait()
        calls = [lambda t: [t.card(card, "object") for card in Card],
                 lambda t: t.format_list([t.card_name(Card.C5), t.card_name(Card.RF)], style="or"),
                 lambda t: t.format_number(1234567),
                 lambda t: _percent(t, 0.4358),
                 lambda t: negotiate(t.language + "-" + REGIONS[t.language])]
        calls = calls[slot % len(calls):] + calls[:slot % len(calls)]
        found = {}
        for language in LANGUAGES[slot % 2::2] + LANGUAGES[1 - slot % 2::2]:  # in two orders
            t = translator(language)
            found[language] = sorted(json.dumps(call(t), ensure_ascii=False) for call in calls)
        answers[slot] = found

    threads = [threading.Thread(target=work, args=(slot,)) for slot in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(json.dumps({"answers": answers, "errors": errors, "overlaps": overlaps}))
""")


#: A region for each language's tag, for negotiate() in the text layer's child.
REGIONS = {"en": "GB", "it": "IT", "cs": "CZ", "ms": "MY", "es": "MX", "id": "ID"}


def test_the_text_layer_answers_right_from_every_thread_from_the_first_call() -> None:
    """Translators, their catalogues and Babel, first loaded by racing threads in fresh
    processes: one thread imports Babel while the others wait, and every thread answers as a
    single thread does."""
    from kowah._simulating import _percent
    from kowah.i18n import LANGUAGES, negotiate, translator

    expected = {}
    for language in LANGUAGES:
        t = translator(language)
        expected[language] = sorted(json.dumps(answer, ensure_ascii=False) for answer in (
            [t.card(card, "object") for card in Card],
            t.format_list([t.card_name(Card.C5), t.card_name(Card.RF)], style="or"),
            t.format_number(1234567), _percent(t, 0.4358), negotiate(language + "-" + REGIONS[language])))
    for _ in range(RUNS // 2):
        found = _run(_TEXT_CHILD, str(THREADS), json.dumps(REGIONS))
        assert found["errors"] == []
        assert found["overlaps"] == [], "two threads imported Babel modules at the same moment"
        assert found["answers"] == [expected] * THREADS
