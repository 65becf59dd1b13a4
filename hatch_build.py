"""Hatchling build hook: compile the gettext catalogues into the package.

``locales/<lang>/LC_MESSAGES/kowah.po`` becomes ``kowah/_locale/<lang>/LC_MESSAGES/kowah.mo`` for
both wheels and editable installs. The build fails on a fuzzy entry, an untranslated
message or a catalogue Babel reports as invalid, so a broken catalogue never ships.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.config import BuilderConfig
from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogueError(Exception):
    """A catalogue is not fit to ship."""


def compile_catalogues(root: Path) -> list[Path]:
    """Compile every ``.po`` under ``root/locales`` into ``root/kowah/_locale``; return the ``.mo`` paths."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po_path in sorted((root / "locales").glob("*/LC_MESSAGES/*.po")):
        lang = po_path.parent.parent.name
        with po_path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        problems = []
        if catalog.fuzzy:
            problems.append("the catalogue header is fuzzy")
        for message in catalog:
            if not message.id:
                continue
            if message.fuzzy:
                problems.append(f"fuzzy: {message.id!r}")
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            if not all(strings):
                problems.append(f"untranslated: {message.id!r}")
            for error in message.check(catalog):
                problems.append(f"{message.id!r}: {error}")
        if problems:
            raise CatalogueError(f"{po_path}: " + "; ".join(problems[:10]))
        mo_path = root / "kowah" / "_locale" / lang / "LC_MESSAGES" / (po_path.stem + ".mo")
        mo_path.parent.mkdir(parents=True, exist_ok=True)
        with mo_path.open("wb") as handle:
            write_mo(handle, catalog)
        written.append(mo_path)
    return written


class CustomBuildHook(BuildHookInterface[BuilderConfig]):
    """Compile the catalogues before the wheel (or editable wheel) is built."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        for mo_path in compile_catalogues(root):
            relative = mo_path.relative_to(root).as_posix()
            build_data["force_include"][str(mo_path)] = relative
