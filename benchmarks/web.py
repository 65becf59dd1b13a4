"""The browser table's speed: an action's round trip through HTTP, and games per second.

    .venv/bin/python benchmarks/web.py [--seconds S] [--no-save]   (after python3 dev.py bench)

Starts ``kowah serve`` in its own process on 127.0.0.1 (saving games in a temporary folder,
as it does by default), warms it up with a few seconds of play, then plays with 1 and with 50
concurrent clients, each its own game against two ``normal`` AIs: every request is one action
of seat 0 (the first legal one, or a declaration) and its answer includes the AIs' replies.
Prints the round-trip time of an action (p50, p99), the games finished per second and the
server's CPU time per action.

Target (issue 12): p99 <= 50 ms with 50 clients and normal opponents.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET_P99 = 0.050


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Client:
    """One player: a keep-alive connection and its own game."""

    def __init__(self, port: int, opponents: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.opponents = opponents
        self.state: dict[str, Any] = {}
        self.times: list[float] = []
        self.games = 0

    def call(self, method: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.connection.request(method, path, json.dumps(body), {"content-type": "application/json"})
        response = self.connection.getresponse()
        data: dict[str, Any] = json.loads(response.read())
        return response.status, data

    def new_game(self) -> None:
        status, self.state = self.call("POST", "/api/games", {"opponents": self.opponents})
        assert status == 201, self.state

    def step(self) -> None:
        if not self.state or self.state["outcome"] is not None:
            if self.state:
                self.games += 1
            self.new_game()
            return
        legal = self.state["legal"]
        action = next((a for a in legal if a["do"] == "declare"), legal[0])
        body = {key: value for key, value in action.items() if key != "seat"}
        body["after"] = self.state["version"]
        start = time.perf_counter()
        status, state = self.call("POST", f"/api/games/{self.state['id']}/actions", body)
        self.times.append(time.perf_counter() - start)
        assert status == 200, state
        self.state = state


def _cpu(pid: int) -> float:
    """CPU seconds the process *pid* has used (Linux; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(port: int, clients: int, seconds: float, opponents: str, pid: int = 0) -> dict[str, float]:
    players = [Client(port, opponents) for _ in range(clients)]
    for player in players:
        player.new_game()
    stop = time.perf_counter() + seconds
    start = time.perf_counter()
    cpu = _cpu(pid)

    def loop(player: Client) -> None:
        while time.perf_counter() < stop:
            player.step()

    threads = [threading.Thread(target=loop, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    cpu = _cpu(pid) - cpu
    times = sorted(t for player in players for t in player.times)
    quantiles = statistics.quantiles(times, n=100) if len(times) > 1 else [times[0]] * 99
    return {"clients": clients, "actions": len(times), "p50": statistics.median(times),
            "p99": quantiles[98], "actions_per_s": len(times) / elapsed,
            "games_per_s": sum(player.games for player in players) / elapsed,
            "server_cpu_ms": cpu / max(1, len(times)) * 1000}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each run (default 10)")
    parser.add_argument("--opponents", default="normal", help="AI strength (default: normal)")
    parser.add_argument("--clients", default="1,50", help="client counts to run (default: 1,50)")
    parser.add_argument("--no-save", action="store_true", help="keep games in memory (default: save)")
    parser.add_argument("--warmup", type=float, default=3.0,
                        help="seconds of play before measuring, so that the server's caches are "
                             "as warm as in a server that has run a while (default 3)")
    args = parser.parse_args(argv)
    port = _free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "kowah", "serve", "--port", str(port)]
        command += ["--no-save"] if args.no_save else ["--data", folder]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        try:
            assert server.stdout is not None
            for line in server.stdout:
                if "http://" in line:
                    break
            else:
                print("the server did not start", file=sys.stderr)
                return 1
            time.sleep(0.2)
            saving = "in memory" if args.no_save else "saving every action"
            print(f"kowah serve on 127.0.0.1:{port}, {args.opponents} opponents, {saving}, "
                  f"{args.seconds:g} s per run")
            print(f"{'clients':>7} {'actions':>8} {'p50 ms':>8} {'p99 ms':>8} {'actions/s':>10} "
                  f"{'games/s':>8} {'server CPU ms/action':>21}")
            if args.warmup > 0:
                run(port, 10, args.warmup, args.opponents)
            ok = True
            for count in (int(item) for item in args.clients.split(",")):
                figures = run(port, count, args.seconds, args.opponents, server.pid)
                print(f"{count:>7} {figures['actions']:>8.0f} {figures['p50'] * 1000:>8.2f} "
                      f"{figures['p99'] * 1000:>8.2f} {figures['actions_per_s']:>10.0f} "
                      f"{figures['games_per_s']:>8.2f} {figures['server_cpu_ms']:>21.2f}")
                if count >= 50 and figures["p99"] > TARGET_P99:
                    ok = False
            print(f"target p99 <= {TARGET_P99 * 1000:.0f} ms with 50 clients: {'met' if ok else 'NOT met'}")
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
