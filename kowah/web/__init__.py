"""The browser table (``kowah serve``): the seeds' page, you against two AIs, in six languages.

Needs the ``web`` extra (Starlette and uvicorn); ``import kowah`` never imports this package.
:func:`kowah.web.app.create_app` builds the application, :class:`kowah.web.store.Store` keeps
the games, :class:`kowah.web.game.Game` plays one of them.
"""
