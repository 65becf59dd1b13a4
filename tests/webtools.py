"""Shared helpers of the web tests: a test client, a game's requests, a private PostgreSQL.

The PostgreSQL server is Debian's ``postgresql`` package (binaries in
``/usr/lib/postgresql/*/bin``): :func:`postgres_cluster` starts a private cluster in a
temporary folder (``initdb``, ``pg_ctl``, a Unix socket, no TCP), as the ``postgres`` system
user when the tests run as root (``initdb`` refuses root), and stops it afterwards. Without the
package or psycopg the PostgreSQL tests are skipped with the reason, unless
``KOWAH_POSTGRES_TESTS=required`` (as in CI), which makes them fail instead.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient as TestClient  # re-exported for the tests

from starlette.types import ASGIApp, Receive, Scope, Send

from kowah.web.app import create_app
from kowah.web.store import Store

Json = dict[str, Any]
#: The address the test clients call (the default settings' bound host).
BASE = "http://127.0.0.1:8000"
REQUIRED = os.environ.get("KOWAH_POSTGRES_TESTS", "").lower() == "required"


#: The test header that gives a request another client address (see :class:`Addressed`).
FROM_ADDRESS = "x-kowah-test-address"


class Addressed:
    """ASGI, the tests' own: a request with a :data:`FROM_ADDRESS` header comes from that
    client address (the header removed), so that one client, whose ``with`` runs the
    application's lifespan, stands for people at several addresses."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            name = FROM_ADDRESS.encode()
            given = [value for key, value in scope["headers"] if key == name]
            if given:
                scope = {**scope, "client": (given[0].decode(), 40000),
                         "headers": [(k, v) for k, v in scope["headers"] if k != name]}
        await self.app(scope, receive, send)


def client(store: Store | None = None, **options: Any) -> TestClient:
    """A test client of a fresh application (its lifespan runs: use it in a ``with``)."""
    return TestClient(Addressed(create_app(store, **options)), base_url=BASE)


def from_address(address: str, **headers: str) -> dict[str, str]:
    """The headers of a request from the client *address* (see :class:`Addressed`)."""
    return {FROM_ADDRESS: address, **headers}


def store_of(c: TestClient) -> Store:
    """The store of the running application of *c* (its lifespan's state)."""
    store: Store = c.app_state["store"]
    return store


def key(state: Json, seat: int = 0) -> dict[str, str]:
    """The ``Authorization`` header of *seat* in a creation answer."""
    token = state["token"] if seat == 0 else next(
        invite["token"] for invite in state["invites"] if invite["seat"] == seat)
    return {"authorization": f"Bearer {token}"}


def new_game(c: TestClient, **body: Any) -> Json:
    response = c.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    state: Json = response.json()
    return state


def choose(state: Json) -> Json:
    """A fixed policy: declare when it can, else the first legal action."""
    legal = state["legal"]
    for action in legal:
        if action["do"] == "declare":
            return dict(action)
    return dict(legal[0])


def act(c: TestClient, state: Json, action: Json, headers: dict[str, str] | None = None,
        **query: str) -> Any:
    body = {**{k: v for k, v in action.items() if k != "seat"}, "after": state["version"]}
    return c.post(f"/api/games/{state['id']}/actions", params=query, json=body, headers=headers)


def play_out(c: TestClient, state: Json, headers: dict[str, str], limit: int = 400) -> Json:
    """Play the seat of *headers* with :func:`choose` until the deal ends; the final state."""
    for _ in range(limit):
        if state["outcome"] is not None:
            break
        response = act(c, state, choose(state), headers)
        assert response.status_code == 200, response.text
        state = response.json()
    full: Json = c.get(f"/api/games/{state['id']}", headers=headers).json()
    return full


# -- PostgreSQL ------------------------------------------------------------------------------------

def postgres_bin() -> Path | None:
    """The newest ``/usr/lib/postgresql/N/bin`` with ``initdb`` and ``pg_ctl``, or ``None``."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda path: int(path.parent.parent.name) if path.parent.parent.name.isdigit() else 0)
    return found[-1].parent if found else None


def postgres_problem() -> str | None:
    """Why the PostgreSQL tests cannot run here, or ``None``."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "PostgreSQL store tests did not run: psycopg is missing (pip install 'kowah[postgres]')"
    if postgres_bin() is None:
        return ("PostgreSQL store tests did not run: no PostgreSQL server binaries "
                "(apt-get install postgresql)")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "PostgreSQL store tests did not run: running as root without a postgres user"
    return None


def need_postgres() -> None:
    """Skip (or, when required, fail) a test without PostgreSQL."""
    problem = postgres_problem()
    if problem is not None:
        if REQUIRED:
            pytest.fail(f"KOWAH_POSTGRES_TESTS=required, but the {problem}")
        pytest.skip(problem)


@contextlib.contextmanager
def postgres_cluster() -> Iterator[str]:
    """A private PostgreSQL server on a Unix socket in a temporary folder; its URL."""
    binaries = postgres_bin()
    assert binaries is not None
    folder = Path(tempfile.mkdtemp(prefix="kowah-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the package's postgres user runs the cluster
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"

    def run(*command: str) -> None:
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=60)

    try:
        run(str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "kowah", "-N",
            "-E", "UTF8", "--locale=C")
        start_postgres(f"?host={folder}")
        try:
            yield f"postgresql://kowah@/postgres?host={folder}"
        finally:
            if (data / "postmaster.pid").exists():  # not stopped already (stop_postgres)
                run(str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def start_postgres(url: str) -> None:
    """Start the server of :func:`postgres_cluster` whose URL is *url* (again)."""
    binaries = postgres_bin()
    assert binaries is not None
    folder = url.rsplit("host=", 1)[1]
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, str(binaries / "pg_ctl"), "-D", f"{folder}/data", "-l", f"{folder}/log",
                    "-w", "-t", "60", "-o", f"-k {folder} -c listen_addresses='' -F", "start"],
                   check=True, capture_output=True, timeout=90)


def stop_postgres(url: str) -> None:
    """Stop the server of :func:`postgres_cluster` whose URL is *url* at once (the database
    is gone, as when its machine fails)."""
    binaries = postgres_bin()
    assert binaries is not None
    folder = url.rsplit("host=", 1)[1]
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, str(binaries / "pg_ctl"), "-D", f"{folder}/data", "-m", "immediate",
                    "-w", "stop"], check=True, capture_output=True, timeout=60)


def empty_postgres(url: str) -> str:
    """*url*'s database emptied of the store's tables; *url*."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("DROP TABLE IF EXISTS games, presence, meta")
    return url


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A private PostgreSQL server for the session (see :func:`postgres_cluster`)."""
    need_postgres()
    with postgres_cluster() as url:
        yield url
