"""``kowah site OUT``: the browser table as a folder of static files (see the docs' page
"The table with no server").

:func:`build` writes, into *out*:

- ``index.html`` (English) and ``<lang>/index.html`` for each other language: the page of
  ``kowah serve`` (:func:`kowah.web.page.render_page`), its addresses made relative to the
  folder, a Content-Security-Policy ``<meta>`` (:data:`CSP`), the manifest's link, and
  ``static/js/site.js`` as its entry module, which sets the transport and starts ``main.js``;
- ``static/``: the same CSS and JavaScript modules as the served page, plus the site's own
  (``start.js``, ``site.js``, ``engine.js``, ``worker.js``, ``wheels.js``, ``snapshot.js``,
  ``keep.js``, ``offline.js``); ``cards/``: the card pictures;
- ``pyodide/<version>/``: the Pyodide runtime (npm's ``pyodide`` package, :data:`PYODIDE`, or
  the folder given), only the files ``loadPyodide()`` fetches, its standard library trimmed;
- ``wheels/``: the ``kowah`` wheel, attrs' and Babel's (its locale data cut to the six languages);
- ``manifest.webmanifest`` with icons drawn from the card pictures (``icon.svg``, and PNGs of
  :data:`ICON_SIZES` pixels, :mod:`kowah.site.icons`; Apple's :data:`APPLE_ICON` besides), and
  ``sw.js``, the service worker, whose cache is named after the build's :attr:`Site.version`.

The runtime's Python is trimmed and compiled when node is there (it is wherever npm is):
Pyodide, run by node, plays the Worker's part and keeps only the standard modules then loaded
(and a few more), and ships them and the wheels' modules as bytecode (:mod:`kowah.site.trim`),
so that a start compiles nothing. Without node, Pyodide's files and the sources go as they are.

>>> from kowah.errors import KowahError
>>> try:
...     build(Path("/nonexistent/out"), pyodide=Path("/nonexistent/pyodide"))
... except KowahError as error:
...     print(error)
no Pyodide runtime in /nonexistent/pyodide (pyodide.mjs is missing)
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import re
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

import attrs

import kowah
from kowah._value import Value
from kowah.cards import Card
from kowah.errors import N_, KowahError
from kowah.i18n import LANGUAGES
from kowah.site.icons import png
from kowah.svg import back as back_svg
from kowah.svg import card as card_svg
from kowah.web.page import render_page
from kowah.web.text import MESSAGES as PAGE_MESSAGES
from kowah.web.text import words

__all__ = ["APPLE_ICON", "CSP", "ICON_SIZES", "MESSAGES", "PYODIDE", "PYODIDE_FILES", "Site", "build",
           "pyodide_from_npm"]

#: The Pyodide release the site runs (npm's ``pyodide`` package).
PYODIDE = "314.0.8"
#: The runtime files ``loadPyodide()`` fetches (the rest of the package is not needed).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: The page's Content-Security-Policy: ``kowah serve``'s, plus what the static site needs and
#: nothing more: WebAssembly (``'wasm-unsafe-eval'``), the manifest; no ``frame-ancestors``
#: (a ``<meta>`` cannot say it: the docs tell hosts to send it as a header).
CSP = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; worker-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'")
#: Babel's locale data the wheel keeps: the six languages, and what they inherit from.
_BABEL_LOCALES = ("root", *LANGUAGES)
#: The site's own sentences (the page's come from kowah.web.text).
MESSAGES = {
    "loading": N_("web", "Starting the game in this browser…"),
    "failed": N_("web", "The game could not start in this browser: {problem}"),
}
#: The manifest's PNG icons (pixels a side: what Android wants to install the site).
ICON_SIZES = (192, 512)
#: The icon iOS puts on the home screen (180 x 180, square and opaque).
APPLE_ICON = "apple-touch-icon.png"
_HERE = Path(__file__).resolve().parent
_STATIC = _HERE.parent / "web" / "static"
_NEVER = ("__pycache__", ".mypy_cache")
#: What builds the site and is not shipped in its kowah wheel.
_BUILDER = ("site/build.py", "site/icons.py", "site/js/")


def _prepare(pyodide: Path, work: Path, node: str) -> Path | None:
    """The runtime's Python trimmed and compiled (:mod:`kowah.site.trim`, run by Pyodide in
    *node*): a folder with ``python_stdlib.zip`` and ``pyc/``; None without node (the site
    then ships Pyodide's standard library and the sources as they are)."""
    if shutil.which(node) is None:
        return None
    wheels = work / "source-wheels"
    _wheels(wheels, trim=True)
    prepared = work / "prepared"
    prepared.mkdir()
    try:
        subprocess.run([node, str(_HERE / "js" / "prepare.mjs"), str(pyodide.resolve()), str(wheels),
                        str(prepared)], check=True, capture_output=True, text=True, timeout=900)
    except (OSError, subprocess.SubprocessError) as error:
        detail = getattr(error, "stderr", None) or str(error)
        raise KowahError(N_("error", "node could not prepare the site's Python: {problem}"),
                         problem=str(detail).strip()[-300:]) from None
    return prepared


@attrs.frozen(init=False)
class Site(Value):
    """What :func:`build` wrote: the folder, the build's version, each file's size in bytes."""

    out: Path
    version: str
    sizes: dict[str, int]

    def __init__(self, out: Path, version: str, sizes: dict[str, int]) -> None:
        self.__attrs_init__(out=out, version=version, sizes=sizes)

    @property
    def total(self) -> int:
        """The bytes of the whole folder."""
        return sum(self.sizes.values())


_NPM_FAILED = N_("error", "npm could not install pyodide@{version}: {problem}")


def pyodide_from_npm(cache: Path, version: str = PYODIDE, npm: str = "npm") -> Path:
    """The unpacked ``pyodide`` npm package of *version*, installed into *cache* by npm once.

    npm installs into a private folder beside the cache's, which is renamed into place only
    once every runtime file is there: builds racing for the same cache (two test workers, two
    terminals) each see a whole package or none, never one half-written by another's npm."""
    folder = cache / f"pyodide-{version}"
    package = folder / "node_modules" / "pyodide"
    if _whole(package):
        return package
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".pyodide-{version}-", dir=cache))
    try:
        try:
            subprocess.run([npm, "install", "--prefix", str(work), "--no-audit", "--no-fund",
                            "--no-save", f"pyodide@{version}"], check=True, capture_output=True,
                           text=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as error:
            detail = getattr(error, "stderr", None) or str(error)
            raise KowahError(_NPM_FAILED, version=version, problem=str(detail).strip()[-300:]) from None
        _pyodide_version(work / "node_modules" / "pyodide")  # whole, or a clear error
        if folder.exists() and not _whole(package):
            shutil.rmtree(folder)  # a broken folder left by an older, non-atomic install
        try:
            os.rename(work, folder)
        except OSError as error:
            if not _whole(package):  # not a racing build that finished first
                raise KowahError(_NPM_FAILED, version=version, problem=str(error)[-300:]) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return package


def _whole(package: Path) -> bool:
    """Whether an unpacked Pyodide package holds every runtime file."""
    return all((package / name).is_file() for name in PYODIDE_FILES)


def _pyodide_version(folder: Path) -> str:
    for name in PYODIDE_FILES:
        if not (folder / name).is_file():
            raise KowahError(N_("error", "no Pyodide runtime in {folder} ({name} is missing)"),
                             folder=str(folder), name=name)
    try:
        return str(json.loads((folder / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        lock = json.loads((folder / "pyodide-lock.json").read_text())
        return str(lock.get("info", {}).get("version", "unknown"))


def _files(root: Path, skip: Iterable[str] = ()) -> list[Path]:
    skipped = tuple(skip)
    return sorted(path for path in root.rglob("*") if path.is_file()
                  and not any(part in _NEVER for part in path.parts)
                  and not path.relative_to(root).as_posix().startswith(skipped))


def _wheel(out: Path, name: str, version: str, package: Path, skip: Iterable[str] = (),
           more: Iterable[Path] = (), compiled: Path | None = None) -> str:
    """A pure-Python wheel of the installed *package* folder (and the *more* folders beside it,
    for a distribution of several packages), with their bytecode from *compiled* (a folder
    laid out as the packages, see :mod:`kowah.site.trim`); its file name."""
    filename = f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    rows = []
    skip = tuple(skip)
    with zipfile.ZipFile(out / filename, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as wheel:
        sources = [(folder, path) for folder in (package, *more) for path in _files(folder, skip)]
        if compiled is not None:
            sources += [(compiled / folder.name, path) for folder in (package, *more)
                        for path in sorted((compiled / folder.name).rglob("*.pyc"))]
        for root, path in sources:
            arcname = f"{root.name}/{path.relative_to(root).as_posix()}"
            info_ = zipfile.ZipInfo(arcname, (2020, 1, 1, 0, 0, 0))  # the same bytes every build
            info_.compress_type = zipfile.ZIP_DEFLATED
            data = path.read_bytes()
            wheel.writestr(info_, data)
            rows.append(f"{arcname},sha256={hashlib.sha256(data).hexdigest()},{len(data)}")
        meta = {"METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
                "WHEEL": "Wheel-Version: 1.0\nGenerator: kowah site\nRoot-Is-Purelib: true\n"
                         "Tag: py3-none-any\n"}
        for key, text in meta.items():
            wheel.writestr(zipfile.ZipInfo(f"{info}/{key}", (2020, 1, 1, 0, 0, 0)), text)
        wheel.writestr(zipfile.ZipInfo(f"{info}/RECORD", (2020, 1, 1, 0, 0, 0)),
                       "\n".join([*rows, f"{info}/METADATA,,", f"{info}/WHEEL,,", f"{info}/RECORD,,"]) + "\n")
    return filename


def _wheels(folder: Path, compiled: Path | None = None, *, trim: bool = False) -> list[str]:
    """The site's wheels in *folder* (with :mod:`kowah.site.trim` when *trim*: to prepare)."""
    import attr
    import babel

    folder.mkdir()
    # The Worker needs the engine, the text layer and kowah.web's game (not its server, the
    # reinforcement-learning environments or this builder).
    kowah_wheel = _wheel(folder, "kowah", kowah.__version__, Path(kowah.__file__).parent,
                         skip=("env/", *_BUILDER, *(() if trim else ("site/trim.py",)), "web/static/",
                               "web/store_"), compiled=compiled)
    data = Path(babel.__file__).parent / "locale-data"
    keep = {f"locale-data/{name}.dat" for name in _BABEL_LOCALES}
    dropped = [name for name in (f"locale-data/{path.name}" for path in data.iterdir()) if name not in keep]
    babel_wheel = _wheel(folder, "babel", babel.__version__, Path(babel.__file__).parent,
                         skip=(*dropped, "messages/"), compiled=compiled)
    # attrs, the engine's values: a distribution of two packages, attr and attrs.
    attrs_wheel = _wheel(folder, "attrs", attrs.__version__, Path(attrs.__file__).parent,
                         more=[Path(attr.__file__).parent], compiled=compiled)
    return [kowah_wheel, attrs_wheel, babel_wheel]


def _icon(size: int) -> str:
    """The app's icon: the Red Flower's picture on the table's felt."""
    inner = card_svg(Card.RF, size=size * 0.56)
    inner = inner.replace("<svg ", f'<svg x="{size * 0.22:g}" y="{size * 0.11:g}" ', 1)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
            f'viewBox="0 0 {size} {size}"><rect width="{size}" height="{size}" rx="{size // 8}" '
            f'fill="#1f5a3e"/>{inner}</svg>\n')


def _page(lang: str, root: str, site: dict[str, object]) -> str:
    """*lang*'s page with its addresses relative to the folder and the site's entry module."""
    page = render_page(words(lang))
    page = re.sub(r'(src|href)="/cards/([a-z0-9]+)\.svg(\?lang=[a-z]+)?"', rf'\1="{root}cards/\2.svg"', page)
    for attribute in ("href", "src"):
        page = page.replace(f'{attribute}="/static/', f'{attribute}="{root}static/')
    # The rules' pictures of the pack wait until the rules are shown: a start then fetches and
    # draws 33 fewer pictures while Python starts (the served page is left as it is).
    page = re.sub(r'(<li class="pack-card[^"]*"[^>]*><img )', r'\1loading="lazy" ', page)
    page = page.replace(f'<script type="module" src="{root}static/js/main.js"></script>',
                        f'<script src="{root}static/js/start.js"></script>\n'
                        f'<script type="module" src="{root}static/js/site.js"></script>')
    head = (f'<meta http-equiv="Content-Security-Policy" content="{html.escape(CSP)}">\n'
            f'<meta name="theme-color" content="#1f5a3e">\n'
            f'<link rel="manifest" href="{root}manifest.webmanifest">\n'
            f'<link rel="apple-touch-icon" href="{root}{APPLE_ICON}">\n')
    page = page.replace('<meta charset="utf-8">\n', '<meta charset="utf-8">\n' + head, 1)
    start, end = page.index('id="kowah-data">') + len('id="kowah-data">'), page.index("</script>")
    data = json.loads(page[start:end])
    t = words(lang)
    data["site"] = {**site, "root": root, **{key: t.gettext("web", text) for key, text in MESSAGES.items()}}
    text = json.dumps(data, ensure_ascii=False).replace("<", "\\u003c")
    return page[:start] + text + page[end:]


def build(out: Path, *, pyodide: Path | None = None, friends_url: str | None = None,
          cache: Path | None = None, npm: str = "npm", node: str = "node") -> Site:
    """Write the static site into *out* (emptied first; see the module). *pyodide* is an
    unpacked Pyodide folder, else npm installs :data:`PYODIDE` into *cache* (default
    ``~/.cache/kowah``); *friends_url* is the ``kowah serve`` table that "Play with friends"
    opens (without it the button is hidden)."""
    if friends_url is not None and not re.fullmatch(r"https?://[^\s\"'<>]+", friends_url):
        raise KowahError(N_("error", "the friends' table address must start with http:// or https://, "
                                     "not {value}"),
                         value=friends_url[:80])
    if pyodide is None:
        pyodide = pyodide_from_npm(cache or Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
                                   / "kowah", npm=npm)
    runtime = _pyodide_version(pyodide)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".kowah-site-", dir=out.parent))
    scratch = Path(tempfile.mkdtemp(prefix=".kowah-site-prepare-", dir=out.parent))
    try:
        prepared = _prepare(pyodide, scratch, node)
        runtime_dir = work / "pyodide" / runtime
        runtime_dir.mkdir(parents=True)
        for name in PYODIDE_FILES:
            trimmed = prepared is not None and (prepared / name).is_file()
            shutil.copyfile((prepared if prepared and trimmed else pyodide) / name, runtime_dir / name)
        wheels = [f"wheels/{name}" for name in _wheels(work / "wheels", prepared and prepared / "pyc")]
        shutil.copytree(_STATIC, work / "static", ignore=shutil.ignore_patterns(*_NEVER))
        for script in sorted((_HERE / "js").glob("*.js")):
            if script.name != "sw.js":
                shutil.copyfile(script, work / "static" / "js" / script.name)
        cards = work / "cards"
        cards.mkdir()
        t = words("en")
        back = back_svg(title=t.gettext("web", PAGE_MESSAGES["back"]))
        (cards / "back.svg").write_text(back, encoding="utf-8")
        for card in Card:
            (cards / f"{card.code}.svg").write_text(card_svg(card, title=t.card_name(card)), encoding="utf-8")
        (work / "icon.svg").write_text(_icon(512), encoding="utf-8")
        for size in ICON_SIZES:
            (work / f"icon-{size}.png").write_bytes(png(size))
        (work / APPLE_ICON).write_bytes(png(180, rounded=False))
        manifest = {"name": "Kowah", "short_name": "Kowah", "start_url": "./", "scope": "./",
                    "display": "standalone", "background_color": "#1f5a3e", "theme_color": "#1f5a3e",
                    "icons": [{"src": "icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
                              *({"src": f"icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
                                 "purpose": "any"} for size in ICON_SIZES)]}
        (work / "manifest.webmanifest").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        # The version: every file but the pages (which carry it) and the service worker.
        digest = hashlib.sha256(f"{runtime} {friends_url}".encode())
        for path in _files(work):
            digest.update(path.relative_to(work).as_posix().encode() + b"\0" + path.read_bytes())
        version = digest.hexdigest()[:16]
        site: dict[str, object] = {"version": version, "pyodide": f"pyodide/{runtime}/", "wheels": wheels,
                "friends_url": friends_url}
        (work / "index.html").write_text(_page("en", "", site), encoding="utf-8")
        for lang in LANGUAGES:
            if lang != "en":
                (work / lang).mkdir()
                (work / lang / "index.html").write_text(_page(lang, "../", site), encoding="utf-8")
        files = [path.relative_to(work).as_posix() for path in _files(work)]
        pages = {"index.html": "./", **{f"{lang}/index.html": f"{lang}/" for lang in LANGUAGES}}
        # The runtime and the wheels pass through the service worker on a first visit (sw.js).
        lazy = [name for name in files if name.startswith(("pyodide/", "wheels/"))]
        precache = [pages.get(name, name) for name in files if name not in lazy]
        worker = (_HERE / "js" / "sw.js").read_text(encoding="utf-8")
        (work / "sw.js").write_text(f"const VERSION = {json.dumps(version)};\n"
                                    f"const FILES = {json.dumps(precache, indent=0)};\n"
                                    f"const LAZY = {json.dumps(lazy, indent=0)};\n{worker}",
                                    encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        work.rename(out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return Site(out, version, {path.relative_to(out).as_posix(): path.stat().st_size for path in _files(out)})
