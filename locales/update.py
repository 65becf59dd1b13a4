#!/usr/bin/env python3
"""Extract the messages of ``kowah/`` into ``locales/kowah.pot`` and update every ``.po``.

    python3 dev.py catalogues           extract and update (translations are kept)
    python3 dev.py catalogues --check   exit 1 if the .pot or a .po is not current

Extraction follows ``[tool.babel]`` in ``pyproject.toml`` (keywords ``N_:1c,2`` and the
``Translator`` methods). Locations are written without line numbers, so that moving code
does not touch the catalogues. Messages no longer in the source are dropped, new ones are
added untranslated (never fuzzy), and each catalogue's ``Plural-Forms`` header is set from
:data:`PLURAL_FORMS`. Files whose content is unchanged (dates, versions aside) are not rewritten.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
import tomllib
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
POT = LOCALES / "kowah.pot"
DOMAIN = "kowah"

#: The plural rule of each translation, written explicitly into its header.
PLURAL_FORMS = {
    "it": "nplurals=2; plural=(n != 1);",
    "cs": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
    "ms": "nplurals=1; plural=0;",
    "es": "nplurals=2; plural=(n != 1);",
    "id": "nplurals=1; plural=0;",
}
LANGUAGE_NAMES = {"it": "Italian", "cs": "Czech", "ms": "Malay", "es": "Spanish",
                  "id": "Indonesian"}
COMMENT_TAGS = ("TRANSLATORS:",)
_VOLATILE = re.compile(
    r'^("POT-Creation-Date: |"PO-Revision-Date: |"Generated-By: |"Project-Id-Version: '
    r'|# Copyright \(C\) )'
)


def _config() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        babel: dict[str, Any] = tomllib.load(handle)["tool"]["babel"]
    config: dict[str, Any] = dict(babel["extract_messages"])
    config["method_map"] = [(mapping["pattern"], mapping["method"])
                            for mapping in babel["mappings"]]
    return config


def extract() -> Catalog:
    """The template catalogue: every marked message of the package."""
    config = _config()
    keywords = parse_keywords(list(config["keywords"]))
    template = Catalog(
        project="kowah",
        version=_version(),
        copyright_holder="The kowah developers",
        charset="utf-8",
        fuzzy=False,
    )
    for path in config["input_paths"]:
        base = ROOT / path
        for filename, _lineno, message, comments, context in extract_from_dir(
            str(base), config["method_map"], keywords=keywords, comment_tags=COMMENT_TAGS,
            strip_comment_tags=True,
        ):
            location: Any = (f"{path}/{filename}".replace("\\", "/"), None)
            existing = template.get(message if isinstance(message, str) else message[0], context)
            if existing is not None:
                existing.locations.append(location)
                existing.auto_comments.extend(c for c in comments if c not in existing.auto_comments)
                continue
            template.add(message, None, [location], auto_comments=comments, context=context)
    return template


def _version() -> str:
    # The version is written once, in kowah/__init__.py (pyproject.toml reads it from there).
    match = re.search(r'^__version__ = "([^"]+)"', (ROOT / "kowah" / "__init__.py").read_text(),
                      flags=re.MULTILINE)
    return match[1] if match else "0"


def _render(catalog: Catalog) -> str:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=76, include_lineno=False, ignore_obsolete=True,
             omit_header=False)
    return buffer.getvalue().decode("utf-8")


def _normalise(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not _VOLATILE.match(line))


def updated_po(language: str, template: Catalog) -> Catalog:
    """The catalogue of *language* brought up to date with *template*."""
    path = LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    if path.exists():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=language, domain=DOMAIN)
    else:
        catalog = Catalog(locale=language, domain=DOMAIN, project="kowah",
                          copyright_holder="The kowah developers", fuzzy=False)
        catalog.language_team = f"{LANGUAGE_NAMES[language]} <kowah translators>"
        catalog.last_translator = "The kowah developers"
    catalog.update(template, no_fuzzy_matching=True, update_creation_date=True)
    catalog.fuzzy = False
    headers = [(name, value) for name, value in catalog.mime_headers if name != "Plural-Forms"]
    catalog.mime_headers = [*headers, ("Plural-Forms", PLURAL_FORMS[language])]
    return catalog


def plan() -> dict[Path, str]:
    """The new content of every catalogue file whose content would change."""
    template = extract()
    wanted = {POT: _render(template)}
    for language in PLURAL_FORMS:
        path = LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"
        wanted[path] = _render(updated_po(language, template))
    changes = {}
    for path, text in wanted.items():
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old is None or _normalise(old) != _normalise(text):
            changes[path] = text
    return changes


def untranslated(language: str) -> list[str]:
    """The message ids of *language* that have no translation (or are fuzzy)."""
    path = LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    missing = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        if message.fuzzy or not all(strings):
            missing.append(message.id if isinstance(message.id, str) else message.id[0])
    return missing


def main(argv: list[str] | None = None) -> int:
    """Update the catalogues (with --check, only say whether they are current); the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 if a catalogue is not current")
    args = parser.parse_args(argv)
    changes = plan()
    if args.check:
        for path in changes:
            print(f"not current: {path.relative_to(ROOT)}", file=sys.stderr)
        if changes:
            print("run: python3 dev.py catalogues", file=sys.stderr)
        return 1 if changes else 0
    for path, text in changes.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"updated {path.relative_to(ROOT)}", file=sys.stderr)
    for language in PLURAL_FORMS:
        missing = untranslated(language)
        if missing:
            print(f"{language}: {len(missing)} messages to translate", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
