"""Hatchling build hook: compile the gettext catalogues and the ready-hand index into the package.

``locales/<lang>/LC_MESSAGES/kowah.po`` becomes ``kowah/_locale/<lang>/LC_MESSAGES/kowah.mo`` for
both wheels and editable installs. A wheel's build fails on a fuzzy entry, an untranslated
message or a catalogue Babel reports as invalid, so a broken catalogue never ships. An editable
install (a checkout being worked on, ``python3 dev.py …``) fails only on invalid entries and
warns about fuzzy and untranslated ones, which show in English until they are translated: a
translator can always install the checkout (``python3 dev.py catalogues``), and the test
command still fails on them (tests/test_catalogues.py).

The ready hands of the Kowah deck and of the money pack are built from the rules
(``kowah._ready_index.build_table``) into ``kowah/_ready/*.bin``, so that the first ready check of a
process loads them in milliseconds instead of building them (tests/test_hands.py checks that
the files equal the rules' definition).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.config import BuilderConfig
from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogueError(Exception):
    """A catalogue is not fit to ship."""


def compile_catalogues(root: Path, *, strict: bool = True) -> list[Path]:
    """Compile every ``.po`` under ``root/locales`` into ``root/kowah/_locale``; return the ``.mo`` paths.

    Not *strict*, fuzzy and untranslated entries are reported on stderr instead of failing.
    """
    import sys

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po_path in sorted((root / "locales").glob("*/LC_MESSAGES/*.po")):
        lang = po_path.parent.parent.name
        with po_path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        problems, unfinished = [], []
        if catalog.fuzzy:
            unfinished.append("the catalogue header is fuzzy")
        for message in catalog:
            if not message.id:
                continue
            if message.fuzzy:
                unfinished.append(f"fuzzy: {message.id!r}")
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            if not all(strings):
                unfinished.append(f"untranslated: {message.id!r}")
            for error in message.check(catalog):
                problems.append(f"{message.id!r}: {error}")
        if strict:
            problems += unfinished
        elif unfinished:
            print(f"warning: {po_path}: {len(unfinished)} entries fuzzy or untranslated (shown in "
                  f"English): " + "; ".join(unfinished[:3]), file=sys.stderr)
        if problems:
            raise CatalogueError(f"{po_path}: " + "; ".join(problems[:10]))
        mo_path = root / "kowah" / "_locale" / lang / "LC_MESSAGES" / (po_path.stem + ".mo")
        mo_path.parent.mkdir(parents=True, exist_ok=True)
        with mo_path.open("wb") as handle:
            write_mo(handle, catalog)
        written.append(mo_path)
    return written


def write_ready_index(root: Path) -> list[Path]:
    """Build ``root/kowah/_ready/*.bin`` from the rules in ``root/kowah``; return their paths."""
    import importlib.util
    import sys

    # Load kowah._ready_index from the source tree being built, whatever else is importable.
    saved = {name: module for name, module in sys.modules.items()
             if name == "kowah" or name.startswith("kowah.")}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        spec = importlib.util.find_spec("kowah._ready_index")
        assert spec is not None and spec.origin is not None
        if Path(spec.origin).resolve() != (root / "kowah" / "_ready_index.py").resolve():
            raise RuntimeError(f"kowah._ready_index found at {spec.origin}, not in {root}")
        from kowah import _ready_index

        return [Path(path) for path in _ready_index.write_data(str(root / "kowah"))]
    finally:
        sys.path.remove(str(root))
        for name in [name for name in sys.modules if name == "kowah" or name.startswith("kowah.")]:
            del sys.modules[name]
        sys.modules.update(saved)


class CustomBuildHook(BuildHookInterface[BuilderConfig]):
    """Compile the catalogues and build the ready-hand index before the wheel (or editable wheel) is built."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        strict = version != "editable"  # a checkout in the works installs with unfinished catalogues
        for path in [*compile_catalogues(root, strict=strict), *write_ready_index(root)]:
            relative = path.relative_to(root).as_posix()
            build_data["force_include"][str(path)] = relative
