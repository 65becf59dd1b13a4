"""``kowah serve`` as a process (issue 17): its options, its data folder, ``kill -9`` during a
burst of actions, and two worker processes on one database."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from kowah.i18n import translator

Json = dict[str, Any]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``kowah serve`` in its own process, ready once it answers."""

    def __init__(self, *args: str, env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        command = [sys.executable, "-m", "kowah", "serve", "--port", str(self.port), *args]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env={**os.environ, "PYTHONUNBUFFERED": "1",
                                                        **(env or {})})
        assert self.process.stdout is not None
        self.lines = [self.process.stdout.readline(), self.process.stdout.readline()]
        for _ in range(400):
            try:
                self.call("GET", "/api/rules?format=text")
                return
            except OSError:
                time.sleep(0.025)
        raise AssertionError(f"the server did not answer: {self.lines}")

    def call(self, method: str, path: str, body: Json | None = None, token: str | None = None,
             connection: http.client.HTTPConnection | None = None) -> tuple[int, Json]:
        own = connection or http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"content-type": "application/json"}
        if token:
            headers["authorization"] = f"Bearer {token}"
        own.request(method, path, None if body is None else json.dumps(body), headers)
        response = own.getresponse()
        data: Json = json.loads(response.read())
        if connection is None:
            own.close()
        return response.status, data

    def stop(self, how: int = signal.SIGINT) -> int:
        if self.process.poll() is None:
            self.process.send_signal(how)
        return self.process.wait(timeout=20)


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


def test_kowah_serve_prints_the_address_and_stops_on_ctrl_c(tmp_path: Path, servers: list[Server]) -> None:
    server = Server("--data", str(tmp_path))
    servers.append(server)
    assert str(tmp_path) in server.lines[0]
    assert f"http://127.0.0.1:{server.port}/" in server.lines[1]
    assert server.stop() == 0
    assert server.process.stderr is not None and "Traceback" not in server.process.stderr.read()
    assert (tmp_path / "kowah.sqlite3").exists()


def _cores_of_each_thread(pid: int) -> set[frozenset[int]]:
    """The cores each thread of process *pid* may run on (``/proc``'s lists: ``0-1,3``)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        line = next(line for line in (task / "status").read_text().splitlines()
                    if line.startswith("Cpus_allowed_list:"))
        cores: set[int] = set()
        for part in line.split(":", 1)[1].strip().split(","):
            low, _, high = part.partition("-")
            cores.update(range(int(low), int(high or low) + 1))
        found.add(frozenset(cores))
    return found


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="chooses cores where Linux can")
def test_a_server_of_one_process_keeps_its_threads_on_one_core(tmp_path: Path,
                                                               servers: list[Server]) -> None:
    """The event loop and the writer hand each action to each other: on one core a hand-over
    wakes no other core. Every thread, the writer's included (started by the first change),
    keeps to the same one; with KOWAH_ANY_CORE set, they may run anywhere, as with one core."""
    allowed = frozenset(os.sched_getaffinity(0))
    server = Server("--no-save")
    servers.append(server)
    status, game = server.call("POST", "/api/games", {"opponents": "random"})
    assert status == 201
    first = game["legal"][0]
    status, _ = server.call("POST", f"/api/games/{game['id']}/actions",
                            {"do": first["do"], **({"card": first["card"]} if "card" in first else {}),
                             "after": game["version"]}, token=game["token"])
    assert status == 200
    assert len(list(Path(f"/proc/{server.process.pid}/task").iterdir())) >= 3  # the writer's too
    each = _cores_of_each_thread(server.process.pid)
    assert len(each) == 1
    (cores,) = each
    assert (len(cores) == 1 and cores <= allowed) if len(allowed) > 1 else cores == allowed
    free = Server("--no-save", env={"KOWAH_ANY_CORE": "1"})
    servers.append(free)
    assert _cores_of_each_thread(free.process.pid) == {allowed}


@pytest.mark.parametrize(("args", "option"), [
    (["--port", "70000"], "--port"), (["--port", "0"], "--port"), (["--port", "８０"], "--port"),
    (["--host", "not a host!"], "--host"), (["--host", "-x.example"], "--host"),
    (["--workers", "0"], "--workers"), (["--idle-timeout", "5"], "--idle-timeout"),
    # Well formed, but no address of this machine's: refused before anything is said.
    (["--host", "192.0.2.1", "--no-save"], "--host"),
    (["--host", "no-such-host.invalid", "--no-save"], "--host"),
    (["--database", "mysql://db.example/games"], "--database"),
])
def test_bad_options_are_argument_errors_naming_the_option(args: list[str], option: str) -> None:
    result = subprocess.run([sys.executable, "-m", "kowah", "serve", "--port", str(free_port()),
                             *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stdout
    assert option in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""  # no "The Kowah table is at …" before the error


def test_a_port_in_use_is_an_error_naming_the_option() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "kowah", "serve", "--no-save", "--port",
                                 str(port), "--lang", "es"], capture_output=True, text=True,
                                timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == translator("es").gettext(
        "cli", "kowah serve: port {port} is in use by another program; choose another with "
               "--port.").format(port=port) + "\n"


@pytest.mark.parametrize("where", ["/proc/kowah", "file"])
def test_a_data_folder_that_cannot_be_written_stops_the_server(tmp_path: Path, where: str) -> None:
    folder = Path(where) if where.startswith("/") else tmp_path / "a-file"
    if where == "file":
        folder.write_text("not a folder")
    result = subprocess.run([sys.executable, "-m", "kowah", "serve", "--data", str(folder),
                             "--lang", "cs"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert str(folder) in result.stderr and "--data" in result.stderr
    assert result.stderr.startswith(translator("cs").gettext(
        "cli", "kowah serve: cannot save games in {path} ({reason}); use --data to choose a "
               "folder you can write to.").split("{")[0])


def test_a_read_only_data_folder_stops_the_server(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,ro", "tmpfs", str(folder)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a read-only tmpfs here (not root)")
    try:
        result = subprocess.run([sys.executable, "-m", "kowah", "serve", "--data", str(folder)],
                                capture_output=True, text=True, timeout=60)
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
    assert result.returncode == 2 and str(folder) in result.stderr and "--data" in result.stderr


def test_kowah_serve_warns_when_others_can_reach_it(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    from kowah.web import server

    class Stop(Exception):
        pass

    def no_run(self: object, sockets: object = None) -> None:
        raise Stop

    monkeypatch.setattr(uvicorn.Server, "run", no_run)
    with pytest.raises(Stop):
        server.serve(translator("en"), host="0.0.0.0", port=free_port(), save=False)
    assert "other computers can reach the table" in capsys.readouterr().err
    with pytest.raises(Stop):
        server.serve(translator("en"), host="127.0.0.1", port=free_port(), save=False)
    assert "reached" not in capsys.readouterr().err


class Player(threading.Thread):
    """One client of a burst: its own game, an action at a time; notes each acknowledged
    version."""

    def __init__(self, server: Server, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.server, self.stop = server, stop
        self.acked: dict[str, tuple[str, int]] = {}  # game id -> (key, version answered)
        self.count = 0

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        try:
            status, state = self.server.call("POST", "/api/games", {"opponents": "random"},
                                             connection=connection)
            token = state["token"]
            self.acked[state["id"]] = (token, state["version"])
            while not self.stop.is_set() and status in (200, 201):
                if state["outcome"] is not None:
                    status, state = self.server.call("POST", "/api/games", {"opponents": "random"},
                                                     connection=connection)
                    token = state["token"]
                else:
                    action = {k: v for k, v in state["legal"][0].items() if k != "seat"}
                    status, state = self.server.call("POST", f"/api/games/{state['id']}/actions",
                                                     {**action, "after": state["version"]}, token,
                                                     connection)
                if status in (200, 201):
                    self.acked[state["id"]] = (token, state["version"])
                    self.count += 1
        except (OSError, http.client.HTTPException, ValueError):
            return  # the server was killed mid-request: that answer never came


@pytest.mark.parametrize("trial", range(3))
def test_kill_9_during_a_burst_loses_no_acknowledged_action(tmp_path: Path, servers: list[Server],
                                                             trial: int) -> None:
    server = Server("--data", str(tmp_path))
    servers.append(server)
    stop = threading.Event()
    players = [Player(server, stop) for _ in range(6)]
    for player in players:
        player.start()
    threshold = 20 + 40 * trial  # kill after this many acknowledged answers, at a different moment each time
    deadline = time.monotonic() + 30
    while sum(player.count for player in players) < threshold and time.monotonic() < deadline:
        time.sleep(0.005)
    server.process.kill()  # SIGKILL: no chance to flush anything
    server.process.wait()
    stop.set()
    for player in players:
        player.join(timeout=10)
    acked = {game: value for player in players for game, value in player.acked.items()}
    assert sum(player.count for player in players) >= threshold
    again = Server("--data", str(tmp_path))
    servers.append(again)
    for game_id, (token, version) in acked.items():
        status, state = again.call("GET", f"/api/games/{game_id}", token=token)
        assert status == 200, (game_id, state)
        # Every answered action is there; an unanswered one is there whole or not at all.
        assert state["version"] >= version and state["version"] == len(state["events"])
    assert again.stop() == 0
    answered = sum(player.count for player in players)
    print(f"kill -9, trial {trial}: {answered} answers acknowledged over {len(acked)} games, "
          "every one found after the restart")


def _socket_messages(port: int, game_id: str, token: str, into: list[Json], ready: threading.Event,
                     stop: threading.Event) -> None:
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{port}/api/games/{game_id}/live", open_timeout=10) as ws:
        ws.send(json.dumps({"token": token}))
        into.append(json.loads(ws.recv(timeout=10)))
        ready.set()
        while not stop.is_set():
            try:
                into.append(json.loads(ws.recv(timeout=0.2)))
            except TimeoutError:
                continue


def _children(pid: int) -> list[int]:
    """The processes whose parent is *pid* (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.append(int(entry.name))
    return found


def test_two_worker_processes_share_the_games(tmp_path: Path, servers: list[Server]) -> None:
    pytest.importorskip("websockets")
    server = Server("--data", str(tmp_path), "--workers", "2")
    servers.append(server)
    assert len(_children(server.process.pid)) >= 2  # the workers (and a resource tracker)
    _, state = server.call("POST", "/api/games", {"opponents": "random", "seed": 5})
    token = state["token"]
    messages: list[Json] = []
    ready, stop = threading.Event(), threading.Event()
    listener = threading.Thread(target=_socket_messages,
                                args=(server.port, state["id"], token, messages, ready, stop))
    listener.start()
    try:
        assert ready.wait(10) and messages[0]["type"] == "hello"
        for _ in range(12):  # each action on a new connection: either worker may take it
            if state["outcome"] is not None:
                break
            action = {k: v for k, v in state["legal"][0].items() if k != "seat"}
            body = {**action, "after": state["version"]}
            # Two clients send the same action at once: one is answered, the other is stale.
            results: list[tuple[int, Json]] = []
            path = f"/api/games/{state['id']}/actions"

            def race(path: str = path, body: Json = body, results: list[Any] = results) -> None:
                results.append(server.call("POST", path, body, token))

            racers = [threading.Thread(target=race) for _ in range(2)]
            for racer in racers:
                racer.start()
            for racer in racers:
                racer.join()
            assert sorted(status for status, _ in results) == [200, 409], results
            state = next(answer for status, answer in results if status == 200)
            end = time.monotonic() + 5
            while not any(m.get("version") == state["version"] for m in messages):
                assert time.monotonic() < end, "the change never reached the socket"
                time.sleep(0.01)
    finally:
        stop.set()
        listener.join(timeout=10)
    assert server.stop() == 0


def test_killing_kowah_serve_ends_its_workers(tmp_path: Path, servers: list[Server]) -> None:
    server = Server("--data", str(tmp_path), "--workers", "2")
    servers.append(server)
    workers = [pid for pid in _children(server.process.pid)
               if "multiprocessing.spawn" in Path(f"/proc/{pid}/cmdline").read_text()]
    assert len(workers) == 2
    server.process.kill()  # SIGKILL: the workers are not told
    server.process.wait()
    for _ in range(400):  # they notice that their parent is gone and stop
        if not any(Path(f"/proc/{pid}").exists() for pid in workers):
            break
        time.sleep(0.05)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
    again = Server("--data", str(tmp_path))  # and the port can be served again at once
    servers.append(again)
    assert again.stop() == 0


def test_with_workers_the_address_is_said_only_once_they_answer(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "kowah", "serve", "--port", str(port), "--data", str(tmp_path),
               "--workers", "2"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline(), process.stdout.readline()]
        assert f"http://127.0.0.1:{port}/" in lines[1], lines
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/rules?format=text")  # at once, no second try
        assert connection.getresponse().status == 200
        connection.close()
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
