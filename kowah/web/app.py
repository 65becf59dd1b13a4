"""The browser table's application: the page, the card pictures, the JSON API (Starlette).

:func:`create_app` builds a fresh application around a :class:`~kowah.web.store.Store`, as
Starlette's own examples do: routes, ``Middleware(Guard)`` for the checks and headers every
answer gets, ``exception_handlers=`` for the API's JSON errors, and a lifespan that owns the
server's state (the store, the game threads, the writer, the live updates and the housekeeping:
turn clocks, idle games), hands it to the endpoints as ``request.state`` and ends it. The
endpoints (:mod:`kowah.web.api`, :mod:`kowah.web.live`, :mod:`kowah.web.page_endpoints`,
:mod:`kowah.web.review`) live at module level; the game logic is in :mod:`kowah.web.game` and
the library.

Every response carries the security headers (:data:`SECURITY_HEADERS`); every ``/api`` answer
also ``Cache-Control: no-store``.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import math
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kowah._value import Value
from kowah.errors import N_, KowahError, KowahTypeError, shorten
from kowah.web import api, live, page_endpoints, review
from kowah.web._checks import check_int, check_text, check_texts
from kowah.web.language import translator_for
from kowah.web.live import Hub
from kowah.web.problems import NO_SUCH_PATH, Problem
from kowah.web.store import (
    NotSavedError,
    Store,
    StoreError,
    StoreFullError,
    UnreadableGameError,
    open_store,
)
from kowah.web.threads import GameThreads
from kowah.web.writer import Writer

__all__ = ["SECURITY_HEADERS", "Settings", "create_app"]

log = logging.getLogger("kowah.web")

_HERE = Path(__file__).resolve().parent
_STATIC = _HERE / "static"

#: Headers on every response.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "img-src 'self'; connect-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-opener-policy": "same-origin",
}
_CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@attrs.frozen(init=False)
class Settings(Value):
    """How a server runs (``kowah serve``'s options); every field is checked.

    >>> settings = Settings(port=8080, allow_hosts=["cards.example"])
    >>> settings.allow_hosts, settings.replace(port=None).port
    (('cards.example',), None)
    >>> Settings(port=70000)
    Traceback (most recent call last):
    ...
    kowah.errors.KowahError: port must be from 1 to 65535, not 70000
    """

    #: The address the server is bound to; ``Host`` must name it (or an *allow_hosts* name).
    host: str
    #: Its port; ``None`` accepts any port in ``Host`` (tests, servers on a free port).
    port: int | None
    #: More names ``Host`` may give (``--allow-host``).
    allow_hosts: tuple[str, ...]
    #: More origins that may send changes (``--allow-origin``), besides the server's own.
    allow_origins: tuple[str, ...]
    #: The largest request body (bytes, else 413).
    max_body: int
    #: The action requests a game accepts, refused ones included (else 429).
    max_actions: int
    #: New games per client address and minute (else 429 with Retry-After).
    max_new_per_minute: int
    #: A game in play untouched this long (seconds) is closed.
    idle_timeout: float
    #: A table still waiting for its people untouched this long (seconds) is closed.
    unjoined_timeout: float
    #: The reverse proxies (addresses) whose ``X-Forwarded-For`` names the client
    #: (``--trust-proxy``; see :mod:`kowah.web.addresses`).
    trust_proxies: tuple[str, ...]

    def __init__(self, host: str = "127.0.0.1", port: int | None = None,
                 allow_hosts: Sequence[str] = (), allow_origins: Sequence[str] = (),
                 max_body: int = 8192, max_actions: int = 2000, max_new_per_minute: int = 60,
                 idle_timeout: float = 86400.0, unjoined_timeout: float = 1800.0,
                 trust_proxies: Sequence[str] = ()) -> None:
        check_text("host", host)
        if port is not None:
            check_int("port", port, 1, 65535)
        for field, number in (("max_body", max_body), ("max_actions", max_actions),
                              ("max_new_per_minute", max_new_per_minute)):
            check_int(field, number, 1)
        for field, seconds in (("idle_timeout", idle_timeout),
                                         ("unjoined_timeout", unjoined_timeout)):
            if type(seconds) not in (int, float) or not 0 < seconds < math.inf:
                error = KowahError if type(seconds) in (int, float) else KowahTypeError
                raise error(N_("error", "{field} must be a number of seconds above 0, not {value}"),
                                      field=field, value=shorten(seconds))
        proxies = check_texts("trust_proxies", trust_proxies)
        for proxy in proxies:
            if _address(proxy) is None:
                raise KowahError(N_("error", "{field} must be an IP address, not {value}"),
                                           field="trust_proxies", value=shorten(proxy))
        self.__attrs_init__(host=host, port=port, allow_hosts=check_texts("allow_hosts", allow_hosts),
                            allow_origins=check_texts("allow_origins", allow_origins), max_body=max_body,
                            max_actions=max_actions, max_new_per_minute=max_new_per_minute,
                            idle_timeout=float(idle_timeout), unjoined_timeout=float(unjoined_timeout),
                            trust_proxies=tuple(str(_address(proxy)) for proxy in proxies))

    def host_ok(self, header: str) -> bool:
        """Whether a ``Host`` header names this server (see the API page)."""
        name, port = _split_host(header)
        if name is None or (self.port is not None and port not in (self.port, None)):
            return False
        if name in self.allow_hosts:
            return True
        bound = self.host.strip("[]").lower()
        wildcard = bound in ("0.0.0.0", "::", "")
        try:
            address = ipaddress.ip_address(name)
        except ValueError:
            return name == "localhost" and (wildcard or _loopback(bound))
        # An address is never a rebound name: any address of this machine's will do when
        # listening on all of them.
        return wildcard or address == _address(bound) or (
            _loopback(bound) and address.is_loopback)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _loopback(text: str) -> bool:
    address = _address(text)
    return text == "localhost" or (address is not None and address.is_loopback)


def _split_host(header: str) -> tuple[str | None, int | None]:
    """``("example.org", 8000)`` from ``example.org:8000``; ``(None, None)`` when malformed."""
    header = header.strip().lower()
    if header.startswith("["):
        name, _, rest = header[1:].partition("]")
        port_text = rest[1:] if rest.startswith(":") else (None if not rest else "x")
    else:
        name, colon, port_text_ = header.partition(":")
        port_text = port_text_ if colon else None
    if not name or any(ch in name for ch in "/@\\ ") or len(name) > 253:
        return None, None
    if port_text is None:
        return name, None
    if not (port_text.isascii() and port_text.isdigit() and 0 < int(port_text) < 65536):
        return None, None
    return name, int(port_text)


class Guard:
    """ASGI middleware: the ``Host`` check on everything; ``Origin`` and ``Content-Type``
    checks on changes and on the socket's handshake; the security headers, and
    ``Cache-Control: no-store`` under ``/api``."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.extra = [(key.encode(), value.encode()) for key, value in SECURITY_HEADERS.items()]
        self._hosts: set[str] = set()  # Host headers found good (a few: the server's names)

    def _host_ok(self, host: str) -> bool:
        if host in self._hosts:
            return True
        good = self.settings.host_ok(host)
        if good and len(self._hosts) < 64:
            self._hosts.add(host)
        return good

    def _refusal(self, scope: Scope) -> Problem | None:
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        path = scope["path"]
        if not self._host_ok(host):
            shown = host[:60].encode("ascii", "replace").decode()
            return Problem.of(translator_for(HTTPConnection(scope)), 400, "bad-host", host=shown)
        if scope["type"] == "websocket" or (scope["method"] in _CHANGES and path.startswith("/api")):
            origin = headers.get("origin")
            if origin is not None and origin not in self.settings.allow_origins:
                scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
                if origin.lower() != f"{scheme}://{host.lower()}":
                    return Problem.of(translator_for(HTTPConnection(scope)), 403, "bad-origin")
        if scope["type"] == "http" and scope["method"] == "POST" and path.startswith("/api"):
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                return Problem.of(translator_for(HTTPConnection(scope)), 415, "json-required")
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = self._refusal(scope)
        if refusal is not None and scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 4400 if refusal.status == 400 else 4403})
            return
        api_path = scope["path"].startswith("/api")

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [*self.extra, (b"cache-control", b"no-store")] if api_path else self.extra
                kept = [(k, v) for k, v in message.get("headers", [])
                        if not (api_path and k.lower() == b"cache-control")]
                message["headers"] = [*kept, *extra]
            await send(message)

        if refusal is not None:
            await refusal.response()(scope, receive, with_headers)
            return
        await self.app(scope, receive, with_headers)


# -- errors -------------------------------------------------------------------------------------

async def _problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    return exc.response()


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if not request.url.path.startswith("/api"):
        return PlainTextResponse(f"{exc.detail}\n", status_code=exc.status_code, headers=exc.headers)
    t = translator_for(request)
    code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "bad-request")
    if code == "bad-request":
        return Problem(exc.status_code, code, str(exc.detail)[:200]).response()
    if code == "not-found":  # no route: not "no such game"
        return Problem(404, code, t.gettext("web", NO_SUCH_PATH)).response()
    return Problem.of(t, exc.status_code, code, headers=dict(exc.headers or {})).response()


async def _store_error(request: Request, exc: Exception) -> Response:
    t = translator_for(request)
    if isinstance(exc, StoreFullError):
        return Problem.of(t, 503, "full").response()
    if isinstance(exc, UnreadableGameError):
        return Problem.of(t, 500, "unreadable").response()
    log.error("kowah: a change was not saved: %s", str(exc)[:300])
    return Problem.of(t, 503, "not-saved").response()


async def _client_left(request: Request, exc: Exception) -> Response:
    """The client closed its connection before its whole request came: one short line."""
    log.info("kowah: %s %s: the client left before sending the whole request", request.method,
             request.url.path[:80])
    return Response(status_code=400)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.exception("kowah: %s %s failed", request.method, request.url.path)
    return Problem.of(translator_for(request), 500, "server-error").response()


# -- the server's state ------------------------------------------------------------------------

def _lifespan(store: Store | None, settings: Settings, close_store: bool
              ) -> Callable[[Starlette], contextlib.AbstractAsyncContextManager[dict[str, Any]]]:
    """The lifespan that owns the server's state while the application runs: the store (a
    temporary one when *store* is ``None``), the game threads, the writer, the live hub and its
    housekeeping. It hands them to the endpoints as the lifespan's state
    (``request.state.store`` …, a copy for each request), and ends them in turn."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Any]]:
        kept = store if store is not None else open_store(None)
        threads = GameThreads()
        writer = Writer(kept)
        hub = Hub(kept, threads)
        hub.start(writer, settings)
        try:
            yield {"store": kept, "settings": settings, "threads": threads, "writer": writer,
                   "live": hub}
        finally:
            await hub.stop()
            writer.close()
            if store is None or close_store:
                kept.close()

    return lifespan


def create_app(store: Store | None = None, *, settings: Settings | None = None,
               allow_hosts: Sequence[str] = (), close_store: bool = False,
               **options: object) -> Starlette:
    """A new browser-table application on *store* (default: a temporary SQLite database for
    each run of the application, removed when it stops; *close_store*: close *store* when it
    stops). *settings* (or its fields as keywords) say how it runs; *allow_hosts* adds names to
    :attr:`Settings.allow_hosts`. Its state lives in its lifespan: run it (``with
    TestClient(app)``, or a server) before it answers."""
    if settings is None:
        settings = Settings(**options)  # type: ignore[arg-type]
    if allow_hosts:
        settings = settings.replace(allow_hosts=(*settings.allow_hosts, *allow_hosts))
    routes = [
        Route("/", page_endpoints.page),
        Route("/games/{game}", page_endpoints.page),
        Route("/cards/{code}.svg", page_endpoints.card_picture),
        Route("/api/games", api.create, methods=["POST"]),
        Route("/api/games/{game}", api.show),
        Route("/api/games/{game}/actions", api.act, methods=["POST"]),
        Route("/api/games/{game}/join", api.join, methods=["POST"]),
        Route("/api/games/{game}/start", api.start, methods=["POST"]),
        Route("/api/games/{game}/leave", api.leave, methods=["POST"]),
        Route("/api/games/{game}/close", api.close, methods=["POST"]),
        Route("/api/games/{game}/next", api.next_deal, methods=["POST"]),
        Route("/api/games/{game}/hand-over", api.hand_over, methods=["POST"]),
        Route("/api/games/{game}/say", api.say, methods=["POST"]),
        Route("/api/phrases", api.phrases),
        Route("/api/games/{game}/record", api.record),
        Route("/api/games/{game}/hint", api.hint),
        WebSocketRoute("/api/games/{game}/live", live.socket),
        Route("/api/rules", page_endpoints.rules),
        *review.ROUTES,
        Mount("/static", StaticFiles(directory=_STATIC), name="static"),
    ]
    return Starlette(
        routes=routes,
        middleware=[Middleware(Guard, settings=settings)],
        exception_handlers={Problem: _problem, HTTPException: _http_error, StoreError: _store_error,
                            NotSavedError: _store_error, StoreFullError: _store_error,
                            UnreadableGameError: _store_error, ClientDisconnect: _client_left,
                            Exception: _server_error},
        lifespan=_lifespan(store, settings, close_store),
    )


def __getattr__(name: str) -> Any:
    """The deprecated names of the language choice, now in :mod:`kowah.web.language`."""
    if name in ("LANG_COOKIE", "accept_language"):
        import warnings

        import kowah.web.language

        warnings.warn(f"kowah.web.app.{name} is deprecated; import it from kowah.web.language",
                      DeprecationWarning, stacklevel=2)
        return getattr(kowah.web.language, name)
    raise AttributeError(f"module 'kowah.web.app' has no attribute {name!r}")
