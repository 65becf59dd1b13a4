"""What the static site's Python keeps, found by running it: this module runs inside Pyodide
at build time (``kowah site``, through node and ``js/prepare.mjs``), never in the browser.

It plays the Worker's part (:func:`exercise`: games in the six languages, hints, records, the
review, the rules), imports every standard module that the shipped packages name anywhere
(:func:`named_imports`) and a few more (:data:`SAFETY`), then writes into *out*:

- ``python_stdlib.zip``: only the standard modules that are then loaded, compiled;
- ``pyc/<package>/…/__pycache__/<module>.<tag>.pyc``: the shipped packages' modules, compiled.

Compiled means bytecode that Python loads without reading or checking the source
(``unchecked-hash`` pycs, PEP 552): a start compiles nothing. The rest of the project never
imports this module; its one test is the built site's.

>>> pyc(b"x = 1\\n", "x.py")[:4] == importlib.util.MAGIC_NUMBER
True
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import json
import marshal
import sys
import zipfile
from pathlib import Path

#: The packages the site ships as wheels (their top-level names).
PACKAGES = ("kowah", "babel", "attr", "attrs")
#: Standard modules kept though no run here loads them: what an error's report, a text's
#: encoding or a date's parsing may reach for.
SAFETY = ("traceback", "linecache", "tokenize", "token", "textwrap", "difflib", "pprint", "reprlib",
          "encodings.aliases", "encodings.ascii", "encodings.latin_1", "encodings.utf_8",
          "encodings.utf_8_sig", "encodings.utf_16", "encodings.utf_32", "encodings.cp1252",
          "encodings.idna", "encodings.punycode", "encodings.unicode_escape",
          "encodings.raw_unicode_escape", "stringprep", "decimal", "_pydecimal", "fractions",
          "numbers", "datetime", "_pydatetime", "_strptime", "calendar", "locale", "gettext",
          "json", "json.decoder", "json.encoder", "json.scanner", "copy", "weakref", "bisect",
          "heapq", "hashlib", "hmac", "secrets", "base64", "uuid", "random", "statistics", "string",
          "unicodedata", "dataclasses", "inspect", "dis", "opcode", "ast", "contextlib", "pickle",
          "_compat_pickle", "copyreg", "codecs", "io", "zipfile", "shutil", "tempfile", "pathlib")
BASE = "http://127.0.0.1"


def pyc(source: bytes, filename: str) -> bytes:
    """*source* compiled, as an unchecked hash-based pyc (PEP 552: flags 0b01)."""
    code = compile(source, filename, "exec", dont_inherit=True)
    return (importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little")
            + importlib.util.source_hash(source) + marshal.dumps(code))


def exercise() -> None:
    """What the Worker runs: games in each language played to the end with hints, their
    records, the review, the rules in each format, a game loaded back, left and closed."""
    from kowah.rendering import FORMATS
    from kowah.site.solo import Tables

    tables = Tables(BASE, "cs,en")
    for number, lang in enumerate(("en", "it", "cs", "ms", "es", "id")):
        query = f"lang={lang}"
        level = ("hard", "normal", "easy")[number % 3]
        made = tables.handle("POST", "/api/games", query, None,
                             json.dumps({"seed": number, "opponents": level}))
        state = json.loads(made.body)
        key = f"Bearer {state['token']}"
        game = f"/api/games/{state['id']}"
        saved = made.saved
        for _ in range(400):
            if state["outcome"] is not None:
                break
            tables.handle("GET", f"{game}/hint", query + "&codes=1", key, "")
            legal = state["legal"]
            action = next((a for a in legal if a["do"] == "declare"), legal[0])
            body = {k: v for k, v in action.items() if k != "seat"}
            reply = tables.handle("POST", f"{game}/actions", query, key,
                                  json.dumps({**body, "after": state["version"]}))
            state, saved = json.loads(reply.body), reply.saved or saved
        tables.handle("GET", game, query + "&since=2", key, "")
        record = json.loads(tables.handle("GET", f"{game}/record", query, key, "").body)
        tables.handle("POST", "/api/review", query, None, json.dumps({"record": record, "seat": 0}))
        for format in FORMATS:
            tables.handle("GET", "/api/rules", f"{query}&format={format}", None, "")
        if saved is not None:
            Tables(BASE).load(saved[1])
        for verb in ("leave", "close"):
            tables.handle("POST", f"{game}/{verb}", query, key, "{}")
        tables.not_saved(state["id"], lang)
        tables.handle("POST", "/api/games", query, None, '{"seed": "x"}')  # a refusal


def named_imports(folder: Path) -> set[str]:
    """Every absolute module name imported anywhere in the ``.py`` files under *folder*."""
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
    return names


def _import_quietly(name: str) -> None:
    # (a module this Python lacks, or one that needs another platform, is not kept)
    with contextlib.suppress(Exception):
        importlib.import_module(name)


def kept_stdlib(stdlib: Path, roots: list[Path]) -> set[str]:
    """The modules of the standard library's zip *stdlib* that are loaded once the Worker's
    part has run and every module the shipped packages name is imported."""
    exercise()
    for root in roots:
        for name in sorted(named_imports(root)):
            if name.split(".")[0] not in PACKAGES:
                _import_quietly(name)
    for name in SAFETY:
        _import_quietly(name)
    prefix = f"{stdlib}/"
    return {name for name, module in list(sys.modules.items())
            if module is not None and str(getattr(module, "__file__", None) or "").startswith(prefix)}


def _module_of(entry: str) -> str:
    path = entry.removesuffix(".py").removesuffix("/__init__")
    return path.replace("/", ".")


def write_stdlib(stdlib: Path, kept: set[str], out: Path) -> dict[str, int]:
    """The kept modules of *stdlib* compiled into *out* (and the packages' other files); the
    bytes of the source zip's entries kept and left out."""
    counts = {"kept": 0, "left": 0}
    with zipfile.ZipFile(stdlib) as source, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target:
        names = set(source.namelist())
        packages = {name for name in kept if f"{name.replace('.', '/')}/__init__.py" in names}
        for info in source.infolist():
            name = info.filename
            folder = name.rstrip("/").rsplit("/", 1)[0].replace("/", ".") if "/" in name.rstrip("/") else ""
            if name.endswith(".py"):
                keep = _module_of(name) in kept
            elif name.endswith("/"):
                keep = name.rstrip("/").replace("/", ".") in packages
            else:
                keep = folder == "" or folder in packages
            counts["kept" if keep else "left"] += info.compress_size
            if not keep:
                continue
            data = source.read(info)
            entry = zipfile.ZipInfo(name, info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            if name.endswith(".py"):
                entry.filename = name + "c"
                data = pyc(data, f"{stdlib}/{name}")
            target.writestr(entry, data)
    return counts


def _folder(package: str) -> Path:
    return Path(str(importlib.import_module(package).__file__)).parent


def write_packages(out: Path) -> int:
    """The shipped packages' modules that are loaded (but this one) compiled, under *out* as
    in the packages; how many (the others, rarely needed, are compiled if ever imported)."""
    tag = sys.implementation.cache_tag
    loaded = {str(getattr(module, "__file__", None)) for module in list(sys.modules.values())} - {__file__}
    count = 0
    for package in PACKAGES:
        folder = _folder(package)
        for path in sorted(path for path in folder.rglob("*.py") if str(path) in loaded):
            relative = path.relative_to(folder.parent)
            target = out / relative.parent / "__pycache__" / f"{path.stem}.{tag}.pyc"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(pyc(path.read_bytes(), str(path)))
            count += 1
    return count


def main(out: str) -> dict[str, object]:
    """Write the trimmed, compiled standard library and the packages' bytecode into *out*."""
    folder = Path(out)
    stdlib = next(Path(entry) for entry in sys.path if entry.endswith(".zip"))
    kept = kept_stdlib(stdlib, [_folder(package) for package in PACKAGES])
    counts = write_stdlib(stdlib, kept, folder / "python_stdlib.zip")
    compiled = write_packages(folder / "pyc")
    return {"modules": len(kept), "compiled": compiled, "tag": sys.implementation.cache_tag, **counts}
