"""``kowah serve``: run the browser table on uvicorn until Ctrl-C.

Imported only by that command, so that ``import kowah`` and the other commands never load
Starlette or uvicorn (the ``web`` extra). With ``--workers N`` uvicorn runs N processes on the
one port, each building its application with :func:`worker_app` from the settings this process
passes down in the environment; they share the database.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import json
import logging
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import webbrowser
from pathlib import Path
from typing import Any

from kowah._oserrors import reason as os_reason
from kowah.errors import N_
from kowah.i18n import Translator

__all__ = ["serve", "shown_url", "worker_app"]

_MISSING = N_("cli", "The browser table needs the web extra: pip install 'kowah[web]' "
                     "(or run python3 dev.py serve).")
_LISTENING = N_("cli", "The Kowah table is at {url} (Ctrl-C stops it).")
_SAVING = N_("cli", "Games are saved in {path}.")
_NOT_SAVING = N_("cli", "Games are kept in memory only: they end with the server.")
_EXPOSED = N_("cli", "Warning: listening on {host}; other computers can reach the table.")
_UNWRITABLE = N_("cli", "kowah serve: cannot save games in {path} ({reason}); use --data to choose "
                        "a folder you can write to.")
_NO_DATABASE = N_("cli", "kowah serve: cannot use the database {url} ({reason}); check --database.")
_NOT_A_DATABASE = N_("cli", "kowah serve: {url} is not a database URL; give --database "
                            "sqlite:///PATH or postgresql://….")
_PORT_IN_USE = N_("cli", "kowah serve: port {port} is in use by another program; choose another "
                         "with --port.")
_NOT_HERE = N_("cli", "kowah serve: {host} is not a name or an address of this computer; check "
                      "--host.")
_CANNOT_LISTEN = N_("cli", "kowah serve: cannot listen on {host}, port {port} ({reason}); check "
                           "--host and --port.")
_IMPORTED = N_("cli", "Games brought over from the earlier files in {path}: {count}.")
_SKIPPED = N_("cli", "Not brought over: {name} ({reason}).")
_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
_ENV = "KOWAH_SERVE_SETTINGS"
_TEMPORARY = "kowah-temporary.sqlite3"


def shown_url(url: str) -> str:
    """*url* without its password, to be printed.

    >>> shown_url("postgresql://kowah:secret@db.example/games")
    'postgresql://kowah@db.example/games'
    """
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")[2]
    user = parts.netloc.rpartition("@")[0].partition(":")[0]
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc}"))


def _url(database: str | None, data: Path | None, save: bool) -> tuple[str, Path | None]:
    """The store's URL, and the folder whose first-edition files to import."""
    if database:
        return database, None
    if not save:  # a temporary folder, removed when the server stops (see _serve)
        return "sqlite://" + str(Path(tempfile.mkdtemp(prefix="kowah-games-")) / _TEMPORARY), None
    from kowah.web.store import SQLITE_NAME, default_data_dir

    folder = data or default_data_dir()
    return "sqlite://" + str(folder.resolve() / SQLITE_NAME), folder


def _writable(folder: Path) -> None:
    """Raise OSError unless *folder* exists (or can be made) and takes a new file."""
    folder.mkdir(parents=True, exist_ok=True)
    probe = folder / f".kowah-probe-{os.getpid()}"
    with open(probe, "wb") as handle:
        handle.write(b"kowah")
        os.fsync(handle.fileno())
    probe.unlink()


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to *host*:*port*, as uvicorn binds one (OSError if it cannot be)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except BaseException:
        listener.close()
        raise
    return listener


def _cannot_listen(t: Translator, host: str, port: int, error: OSError) -> str:
    """Why the server cannot listen on *host*:*port*, naming the option to change."""
    if error.errno == errno.EADDRINUSE:
        return t.gettext("cli", _PORT_IN_USE).format(port=port)
    if isinstance(error, socket.gaierror) or error.errno == errno.EADDRNOTAVAIL:
        return t.gettext("cli", _NOT_HERE).format(host=host)
    return t.gettext("cli", _CANNOT_LISTEN).format(host=host, port=port, reason=os_reason(t, error))


def _say_when_answered(t: Translator, host: str, port: int, address: str, open_browser: bool,
                       every: float = 0.1, patience: float = 120.0) -> None:
    """Say the table's address once one of the ``--workers`` processes answers on it."""
    import http.client

    target = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        connection = http.client.HTTPConnection(target, port, timeout=2)
        try:
            connection.request("GET", "/cards/back.svg", headers={"host": f"{target}:{port}"
                               if ":" not in target else f"[{target}]:{port}"})
            if connection.getresponse().status < 500:
                break
        except OSError:
            pass
        finally:
            connection.close()
        time.sleep(every)
    else:
        return
    print(t.gettext("cli", _LISTENING).format(url=address), flush=True)
    if open_browser:
        webbrowser.open(address)


def _end_with_parent(parent: int, every: float = 0.5) -> None:
    """Stop this worker process (as Ctrl-C would) once *parent*, the ``kowah serve`` that
    started it, is gone: killed, it must not leave workers serving its port."""
    while os.getppid() == parent:
        time.sleep(every)
    os.kill(os.getpid(), signal.SIGTERM)


#: The garbage collector's thresholds in a server: the full passes a hundred times rarer than
#: Python's default (700, 10, 10). Each pass stops the server for 20–80 ms with the games of 50
#: players cached; under load they came about once a second, and none freed anything (a
#: game's objects are freed by their reference counts as soon as they are dropped).
GC_THRESHOLDS = (700, 10, 1000)
#: How long a thread runs before another waiting for the interpreter gets it (seconds; Python's
#: default is 0.005): the event loop takes requests in and answers them sooner while the
#: writer's thread works (3–10 % more actions a second with 50 clients, measured).
SWITCH_INTERVAL = 0.001


def _settle() -> None:
    """Make the process ready to serve: what is loaded by now (modules, the rules' tables) is
    left out of the garbage collector's full passes, and those passes are rarer
    (:data:`GC_THRESHOLDS`): each pass stops the server, and its length grows with the objects
    it looks at (half a second with a few thousand games, without this and the store's cache of
    games in play only). Threads take turns sooner (:data:`SWITCH_INTERVAL`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)


#: Set (to anything) in the environment, ``kowah serve`` of one process leaves its threads free
#: to run on any core (see :func:`_one_core`).
ANY_CORE = "KOWAH_ANY_CORE"


def _one_core() -> int | None:
    """Keep this process's threads, those running and those to come, on the core it runs on now
    (Linux, when the process may run on several): the core, or ``None`` when nothing was done.

    The event loop's thread and the writer's take turns (they share the interpreter's lock) and
    hand each action to each other twice; on one core a hand-over wakes no other core, and each
    finds what the other just made in the caches they share. Measured with
    ``benchmarks/web.py`` (50 people, one process, 2026-12-04): a sixth less of the server's CPU
    per action, and the same round trips. A process of ``--workers`` is placed by the system,
    as is a server started with :data:`ANY_CORE` set."""
    if os.environ.get(ANY_CORE) or not hasattr(os, "sched_setaffinity"):
        return None
    try:
        allowed = os.sched_getaffinity(0)
        if len(allowed) < 2:
            return None
        # The core the process last ran on: field 39 of /proc/self/stat, the 37th after the name.
        fields = Path("/proc/self/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        core = int(fields[36]) if len(fields) > 36 and fields[36].isdigit() else min(allowed)
        core = core if core in allowed else min(allowed)
        for task in os.listdir("/proc/self/task"):
            with contextlib.suppress(ProcessLookupError):  # a thread that has just ended
                os.sched_setaffinity(int(task), {core})
    except (OSError, ValueError):
        return None
    return core


def worker_app() -> Any:
    """The application of one ``--workers`` process (settings from the environment)."""
    from kowah.web.app import Settings, create_app
    from kowah.web.store import open_store

    config = json.loads(os.environ[_ENV])
    from kowah.web.ai_players import offer

    offer(config.get("players", ()), folder=config.get("folder"))  # found as the parent found them
    # The parent's id as it started the workers: it may be gone before this one is ready.
    threading.Thread(target=_end_with_parent, args=(config["parent"],), name="kowah-parent",
                     daemon=True).start()
    fields: dict[str, Any] = {key: tuple(value) if isinstance(value, list) else value
                              for key, value in config["settings"].items()}
    settings = Settings(**fields)
    app = create_app(open_store(config["url"]), settings=settings, close_store=True)
    _settle()
    return app


def serve(t: Translator, *, host: str = "127.0.0.1", port: int = 8000, data: Path | None = None,
          save: bool = True, open_browser: bool = False, database: str | None = None,
          workers: int = 1, allow_hosts: tuple[str, ...] = (), allow_origins: tuple[str, ...] = (),
          idle_timeout: float = 86400, max_new_per_minute: int = 60, players: tuple[str, ...] = (),
          unjoined_timeout: float = 1800, trust_proxies: tuple[str, ...] = ()) -> int:
    """Serve the table on *host*:*port* (see ``kowah serve --help``); return the exit code.
    *players* are players of one's own offered besides the levels (``--player``), loaded now."""
    try:
        import starlette  # noqa: F401 - the web extra
        import uvicorn  # noqa: F401
    except ImportError:
        print(t.gettext("cli", _MISSING), file=sys.stderr)
        return 2
    from kowah.web.ai_players import offer

    offer(players, folder=os.getcwd())  # one that cannot be loaded: an error of the command line
    if not logging.getLogger("kowah").handlers:
        logging.basicConfig(level=logging.WARNING, format="%(message)s")
    if database and not database.startswith(("sqlite:", "postgresql://", "postgres://")):
        print(t.gettext("cli", _NOT_A_DATABASE).format(url=database[:80]), file=sys.stderr)
        return 2
    url, folder = _url(database, data, save)
    if folder is not None:
        try:
            _writable(folder)
        except OSError as error:
            print(t.gettext("cli", _UNWRITABLE).format(path=folder, reason=os_reason(t, error)),
                  file=sys.stderr)
            return 2
    try:  # before anything is said: a bad --host or --port is an error of the command line
        listener = _listen(host, port)
    except OSError as error:
        print(_cannot_listen(t, host, port, error), file=sys.stderr)
        return 2
    try:
        return _serve(t, listener, url, folder, host=host, port=port, save=save,
                      open_browser=open_browser, workers=workers,
                      allow_hosts=allow_hosts, allow_origins=allow_origins,
                      idle_timeout=idle_timeout, max_new_per_minute=max_new_per_minute, players=players,
                      unjoined_timeout=unjoined_timeout, trust_proxies=trust_proxies)
    finally:
        listener.close()
        if not save:
            shutil.rmtree(Path(url[len("sqlite://"):]).parent, ignore_errors=True)


def _serve(t: Translator, listener: socket.socket, url: str, folder: Path | None, *, host: str,
           port: int, save: bool, open_browser: bool, workers: int,
           allow_hosts: tuple[str, ...], allow_origins: tuple[str, ...], idle_timeout: float,
           max_new_per_minute: int, players: tuple[str, ...], unjoined_timeout: float,
           trust_proxies: tuple[str, ...]) -> int:
    import uvicorn

    from kowah.web.app import Settings, create_app
    from kowah.web.store import StoreError, import_files, open_store

    try:
        store = open_store(url)
        if folder is not None:
            imported, skipped = import_files(store, folder)
            if imported:
                print(t.gettext("cli", _IMPORTED).format(path=folder, count=imported))
            for name, reason in skipped:
                print(t.gettext("cli", _SKIPPED).format(name=name, reason=reason), file=sys.stderr)
    except StoreError as error:
        if folder is not None:
            print(t.gettext("cli", _UNWRITABLE).format(path=folder, reason=error.reason),
                  file=sys.stderr)
        else:
            print(t.gettext("cli", _NO_DATABASE).format(url=shown_url(url), reason=error.reason),
                  file=sys.stderr)
        return 2
    # The same settings for one process and, through the environment, for --workers processes.
    fields: dict[str, Any] = {"host": host, "port": port, "allow_hosts": allow_hosts,
                              "allow_origins": allow_origins, "idle_timeout": idle_timeout,
                              "max_new_per_minute": max_new_per_minute,
                              "unjoined_timeout": unjoined_timeout, "trust_proxies": trust_proxies}
    settings = Settings(**fields)
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    if host not in _LOCAL_HOSTS:
        print(t.gettext("cli", _EXPOSED).format(host=host), file=sys.stderr)
    print(t.gettext("cli", _NOT_SAVING) if not save
          else t.gettext("cli", _SAVING).format(path=folder if folder is not None else shown_url(url)))
    if workers > 1:
        store.close()
        listener.close()  # uvicorn binds the one port for its worker processes itself
        os.environ[_ENV] = json.dumps({"url": url, "parent": os.getpid(), "settings": fields,
                                       "players": list(players), "folder": os.getcwd()})
        # The address is said once a worker answers, never before.
        threading.Thread(target=_say_when_answered, name="kowah-ready", daemon=True,
                         args=(t, host, port, address, open_browser)).start()
        with contextlib.suppress(KeyboardInterrupt):
            uvicorn.run("kowah.web.server:worker_app", factory=True, host=host, port=port,
                        workers=workers, log_level="warning", access_log=False,
                        proxy_headers=False)
        return 0
    print(t.gettext("cli", _LISTENING).format(url=address), flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(address,)).start()
    app = create_app(store, settings=settings)
    # proxy_headers=False: X-Forwarded-For is read only from the proxies named by --trust-proxy.
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on",
                            access_log=False, proxy_headers=False)
    server = uvicorn.Server(config)
    _settle()
    _one_core()
    try:
        with contextlib.suppress(KeyboardInterrupt):  # uvicorn handles Ctrl-C itself, quietly
            server.run(sockets=[listener])
    finally:
        store.close()
    return 0
