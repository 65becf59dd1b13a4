"""``kowah serve``: run the browser table on uvicorn until Ctrl-C.

Imported only by that command, so that ``import kowah`` and the other commands never load
Starlette or uvicorn (the ``web`` extra).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import webbrowser
from pathlib import Path

from kowah.errors import N_
from kowah.i18n import Translator

__all__ = ["serve"]

_MISSING = N_("cli", "The browser table needs the web extra: pip install 'kowah[web]' "
                     "(or run python3 dev.py serve).")
_LISTENING = N_("cli", "The Kowah table is at {url} (Ctrl-C stops it).")
_SAVING = N_("cli", "Games are saved in {path}.")
_NOT_SAVING = N_("cli", "Games are kept in memory only: they end with the server.")
_EXPOSED = N_("cli", "Warning: listening on {host}, the table can be reached by other computers.")
_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def serve(t: Translator, *, host: str = "127.0.0.1", port: int = 8000, data: Path | None = None,
          save: bool = True, open_browser: bool = False) -> int:
    """Serve the table on *host*:*port*, saving games in *data* (default: the per-user folder)
    unless *save* is false; return the exit code."""
    try:
        import uvicorn

        from kowah.web.app import create_app
        from kowah.web.store import Store, default_data_dir
    except ImportError:
        print(t.gettext("cli", _MISSING), file=sys.stderr)
        return 2
    folder = (data or default_data_dir()) if save else None
    store = Store(folder)
    app = create_app(store)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    if host not in _LOCAL_HOSTS:
        print(t.gettext("cli", _EXPOSED).format(host=host), file=sys.stderr)
    print(t.gettext("cli", _SAVING).format(path=folder) if folder is not None
          else t.gettext("cli", _NOT_SAVING))
    print(t.gettext("cli", _LISTENING).format(url=url), flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # uvicorn handles Ctrl-C itself, quietly
            server.run()
    finally:
        store.close()  # every game on disk before the process ends
    return 0
