"""The static table (``kowah site OUT``): the browser table's page with no server.

:mod:`kowah.site.build` writes the folder (the page, the Pyodide runtime, the wheels, the Web
Worker, the manifest and the service worker); :mod:`kowah.site.solo` is the Python the Worker
runs: it answers the page's requests for a solo table as ``kowah serve`` does, without
Starlette. ``import kowah`` never imports this package.
"""
