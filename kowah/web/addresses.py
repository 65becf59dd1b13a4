"""Whose request is it: the client address that the fair shares and the new-game limit count.

The address is the connection's peer, unless that peer is a reverse proxy the operator named
(``kowah serve --trust-proxy ADDRESS``): then it is the last address in ``X-Forwarded-For``
that is not one of those proxies. A header from anyone else is ignored, so that a client cannot
pick its own address.

>>> scope = {"type": "http", "client": ("10.0.0.2", 5000),
...          "headers": [(b"x-forwarded-for", b"203.0.113.9, 198.51.100.4")]}
>>> client_address(scope, ())
'10.0.0.2'
>>> client_address(scope, ("10.0.0.2",))
'198.51.100.4'
>>> client_address(scope, ("10.0.0.2", "198.51.100.4"))
'203.0.113.9'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from starlette.datastructures import Headers
from starlette.types import Scope

__all__ = ["client_address"]


def _address(text: str) -> str | None:
    """*text* as a normal address (``None`` when it is not one)."""
    try:
        return str(ipaddress.ip_address(text.strip().strip("[]")))
    except ValueError:
        return None


def client_address(scope: Scope, trusted: Sequence[str]) -> str:
    """The client address of a request's *scope* (see the module's description)."""
    client = scope.get("client")
    peer = str(client[0]) if client else ""
    if not trusted or (_address(peer) or peer) not in trusted:
        return peer
    forwarded = Headers(scope=scope).getlist("x-forwarded-for")
    hops = [hop for header in forwarded for hop in header.split(",")]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            return peer  # a header that is not a list of addresses: the proxy's own
        if address not in trusted:
            return address
    return peer
