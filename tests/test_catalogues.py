"""The message catalogues: current with the source, complete, consistent, valid (issue 3)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import string
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from kowah.i18n import FORM_SPECS, LANGUAGES, messages
from kowah.rendering import rulebook_messages

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "locales"
TRANSLATED = [language for language in LANGUAGES if language != "en"]

# Written out here, not read from update.py, so that a wrong rule there fails a test.
PLURAL_FORMS = {
    "it": "nplurals=2; plural=(n != 1);",
    "cs": "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
    "ms": "nplurals=1; plural=0;",
    "es": "nplurals=2; plural=(n != 1);",
    "id": "nplurals=1; plural=0;",
}
NPLURALS = {"it": 2, "cs": 3, "ms": 1, "es": 2, "id": 1}


def _update() -> ModuleType:
    spec = importlib.util.spec_from_file_location("kowah_locales_update", LOCALES / "update.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _catalog(language: str) -> Catalog:
    with (LOCALES / language / "LC_MESSAGES" / "kowah.po").open("rb") as handle:
        return read_po(handle, locale=language, domain="kowah")


def _strings(message: Message) -> list[str]:
    value = message.string
    return [str(text or "") for text in value] if isinstance(value, (list, tuple)) else [
        str(value or "")]


def _ids(message: Message) -> list[str]:
    return [str(msgid) for msgid in message.id] if isinstance(message.id, (list, tuple)) else [
        str(message.id)]


_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")


def placeholders(text: str, context: str | None) -> set[str]:
    """The format fields of *text*: ``{name!r:spec}`` fields, or %-fields for argparse. A
    name's form (``{card:object}``, ``{name:subject}``) is each language's choice, so it is
    left out (see "How a sentence names a card, a seat or a person" in kowah.i18n)."""
    if context == "argparse":
        return {field for field in _PERCENT.findall(text) if field != "%%"}
    fields = set()
    for _literal, name, spec, conversion in string.Formatter().parse(text):
        if name is not None:
            spec = "" if spec in FORM_SPECS else spec
            fields.add(f"{name}!{conversion or ''}:{spec or ''}")
    return fields


def test_placeholder_helper() -> None:
    assert placeholders("{a} and {b!r} {c:>3}", "error") == {"a!:", "b!r:", "c!:>3"}
    assert placeholders("%(prog)s: %s 100%%", "argparse") == {"%(prog)s", "%s"}
    assert placeholders("Take {card:object}", "web") == placeholders("Prendi: {card}", "web")


def test_catalogues_are_current_with_the_source() -> None:
    changes = _update().plan()
    assert not changes, f"run `python3 dev.py catalogues`: {sorted(map(str, changes))}"


def test_update_check_exit_code() -> None:
    assert _update().main(["--check"]) == 0


def test_the_template_holds_every_message_the_text_layer_shows() -> None:
    with (LOCALES / "kowah.pot").open("rb") as handle:
        template = read_po(handle)
    for context, message in [*messages(), *rulebook_messages()]:
        found = template.get(message, context)
        if found is None:  # a plural message is keyed by its singular
            found = next((m for m in template if m.context == context and message in _ids(m)), None)
        assert found is not None, (context, message)


@pytest.mark.parametrize("language", TRANSLATED)
def test_fully_translated_and_not_fuzzy(language: str) -> None:
    catalog = _catalog(language)
    assert not catalog.fuzzy
    with (LOCALES / "kowah.pot").open("rb") as handle:
        template = read_po(handle)
    assert {(m.id, m.context) for m in catalog if m.id} == {(m.id, m.context) for m in template if m.id}
    for message in catalog:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        assert all(_strings(message)), f"{language}: untranslated {message.id!r}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_placeholders_identical(language: str) -> None:
    for message in _catalog(language):
        if not message.id:
            continue
        expected: set[str] = set()
        for msgid in _ids(message):
            expected |= placeholders(msgid, message.context)
        for text in _strings(message):
            assert placeholders(text, message.context) == expected, (language, message.id, text)


@pytest.mark.parametrize("language", TRANSLATED)
def test_plural_forms_header(language: str) -> None:
    text = (LOCALES / language / "LC_MESSAGES" / "kowah.po").read_text(encoding="utf-8")
    assert f'"Plural-Forms: {PLURAL_FORMS[language]}\\n"' in text
    catalog = _catalog(language)
    assert catalog.num_plurals == NPLURALS[language]
    for message in catalog:
        if message.id and isinstance(message.id, (list, tuple)):
            assert len(_strings(message)) == NPLURALS[language], message.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_catalogue_is_valid(language: str) -> None:
    path = LOCALES / language / "LC_MESSAGES" / "kowah.po"
    catalog = _catalog(language)
    problems = [(message.id, error) for message in catalog if message.id
                for error in message.check(catalog)]
    assert not problems
    msgfmt = shutil.which("msgfmt")
    if msgfmt is not None:  # GNU gettext's own checks, where it is installed
        result = subprocess.run([msgfmt, "--check", "-o", "/dev/null", str(path)],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr


def test_czech_typography() -> None:
    """Czech binds one-letter prepositions and conjunctions to the next word with a no-break
    space, and quotes with „…“ (locales/GLOSSARY.md); values quoted by repr keep ASCII quotes."""
    loose = re.compile(r"(?<![\w{}%.)/-])[kKsSvVzZoOuUaAiI] ")
    ascii_quoted = re.compile(r"'(?:\{\w+\}|%\(\w+\)s|[a-z]+)'")
    for message in _catalog("cs"):
        if not message.id:
            continue
        for text in _strings(message):
            assert loose.search(text) is None, (message.id, text)
            if "Card.parse" not in text:
                assert ascii_quoted.search(text) is None, (message.id, text)


def test_the_build_hook_refuses_an_unfinished_catalogue_for_a_wheel_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A wheel never ships an untranslated entry; an editable install of a checkout in the works
    does (in English, with a warning), so that a translator can always install it."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("hatch_build_under_test", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    folder = tmp_path / "locales" / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "kowah.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgctxt "cli"\nmsgid "Done."\nmsgstr "Fatto."\n\n'
        'msgctxt "cli"\nmsgid "New."\nmsgstr ""\n', encoding="utf-8")
    with pytest.raises(hook.CatalogueError, match=r"untranslated: 'New\.'"):
        hook.compile_catalogues(tmp_path)
    (mo,) = hook.compile_catalogues(tmp_path, strict=False)
    assert "1 entries fuzzy or untranslated" in capsys.readouterr().err
    import gettext

    with mo.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)
    assert catalogue.pgettext("cli", "Done.") == "Fatto." and catalogue.pgettext("cli", "New.") == "New."
