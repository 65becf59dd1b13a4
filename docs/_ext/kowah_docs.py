"""Sphinx directives that generate parts of the kowah documentation from the package itself.

``.. kowah-rules:: LANG``
    The complete rules in *LANG*, exactly as ``kowah rules --lang LANG --format html
    --fragment`` prints them (a raw HTML fragment), so the rules pages can never drift from
    the command, after links to the same rules in the other languages. The page that holds
    it is marked as written in *LANG*: its content is wrapped in ``<div lang="LANG">``.

``.. kowah-hand:: CARDS``
    A hand as card pictures (:func:`kowah.svg.hand`), for instance ``5c 5c 5s 5s 5m 8c 8c 8c``,
    inline SVG with the cards' English names as its accessible text.

``.. kowah-cli::`` / ``.. kowah-cli:: SUBCOMMAND``
    The ``--help`` text of the ``kowah`` command, or of one of its subcommands, taken from the
    real argument parser (:func:`kowah.cli.build_parser`), in a literal block.

The functions :func:`rules_html`, :func:`cli_help` and :func:`subcommands` are what the
directives show; the tests compare them with the command's own output.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from kowah_theme import translate_theme
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.util.docutils import SphinxDirective
from sphinx.util.osutil import relative_uri

import kowah
from kowah.cli import build_parser
from kowah.i18n import LANGUAGES, translator
from kowah.rendering import render_language_links, render_rules
from kowah.rulebook import TITLE

__all__ = ["HELP_COLUMNS", "cli_help", "hand_html", "rules_html", "rules_title", "setup",
           "subcommands"]

#: The metadata key that marks a page as written in one language (set by ``kowah-rules``).
LANGUAGE_KEY = "kowah-language"

_PACKAGE = Path(kowah.__file__).resolve().parent

#: The width the help texts are wrapped to, whatever terminal builds the docs.
HELP_COLUMNS = 78


def rules_html(language: str) -> str:
    """The rules fragment the ``kowah-rules`` directive inserts for *language*."""
    return render_rules(language, "html")


def hand_html(codes: str) -> str:
    """The card pictures the ``kowah-hand`` directive inserts for *codes* (``"5c 5s ot"``)."""
    from kowah.cards import parse_cards
    from kowah.svg import hand

    return f'<div class="kowah-hand">{hand(parse_cards(codes, pack=None), size=72)}</div>\n'


def rules_title(language: str) -> str:
    """The title of the rules in *language* (the rules pages use it as their title)."""
    return translator(language).gettext("rules", TITLE)


@contextlib.contextmanager
def _columns(columns: int) -> Iterator[None]:
    """The ``argparse`` module wraps help to ``$COLUMNS``: fix it while the help is formatted."""
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(columns)
    try:
        yield
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def subcommands() -> list[str]:
    """The names of the ``kowah`` subcommands, in the parser's order."""
    return list(_subparsers(build_parser(translator("en"))))


def cli_help(subcommand: str | None = None, columns: int = HELP_COLUMNS) -> str:
    """The English ``--help`` text of ``kowah`` or of ``kowah SUBCOMMAND``."""
    parser = build_parser(translator("en"))
    if subcommand is not None:
        found = _subparsers(parser)
        if subcommand not in found:
            raise ValueError(f"kowah has no subcommand {subcommand!r} (it has {', '.join(found)})")
        parser = found[subcommand]
    with _columns(columns):
        return parser.format_help()


def _note_dependencies(directive: SphinxDirective, *names: str) -> None:
    """Rebuild the page when these files of the package change (incremental builds)."""
    for name in names:
        path = _PACKAGE / name
        if path.exists():
            directive.env.note_dependency(str(path))


class RulesDirective(SphinxDirective):
    """``.. kowah-rules:: LANG``: the rules in *LANG* as the ``kowah rules`` command renders them."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        language = self.arguments[0].strip()
        if language not in LANGUAGES:
            raise self.error(f"kowah-rules: unknown language {language!r} "
                             f"(the languages are {', '.join(LANGUAGES)})")
        # The page depends on the package's text, not only on its own source.
        _note_dependencies(self, "i18n.py", "rendering.py", "rulebook.py",
                           f"_locale/{language}/LC_MESSAGES/kowah.mo")
        self.env.metadata[self.env.docname][LANGUAGE_KEY] = language
        builder = self.env.app.builder
        here = builder.get_target_uri(self.env.docname)
        folder = self.env.docname.rpartition("/")[0]

        def href(other: str) -> str:
            target = f"{folder}/{other}" if folder else other
            return relative_uri(here, builder.get_target_uri(target))

        links = render_language_links(language, href)
        html = rules_html(language)
        wrapped = f'<div class="kowah-rules">\n{html}</div>\n'
        found: list[nodes.Node] = [nodes.raw("", links, format="html")]
        # Where these rules come from: the explanation page in the same language, titled in it.
        sources = f"sources/{language}"
        if sources in self.env.found_docs:
            link = addnodes.pending_xref("", nodes.inline("", sources), refdomain="std", reftype="doc",
                                         reftarget=f"/{sources}", refexplicit=False, refwarn=True)
            found.append(nodes.paragraph("", "", link, classes=["kowah-sources"]))
        return [*found, nodes.raw("", wrapped, format="html")]


def _mark_language(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                   doctree: nodes.document | None) -> None:
    """A page written in one language is ``<html lang="LANG">``, and its content is wrapped
    in ``<div class="kowah-page" lang="LANG">`` (the theme's words around it are translated
    when the build has finished: :func:`_translate_theme`)."""
    language = app.env.metadata.get(pagename, {}).get(LANGUAGE_KEY)
    if language is not None and "body" in context:
        context["language"] = language
        context["body"] = f'<div class="kowah-page" lang="{language}">\n{context["body"]}</div>\n'


def _translate_theme(app: Sphinx, exception: Exception | None) -> None:
    """Put the theme's labels of each page written in one language into that language."""
    builder = app.builder
    if exception is not None or not isinstance(builder, StandaloneHTMLBuilder):
        return
    for docname, metadata in app.env.metadata.items():
        language = metadata.get(LANGUAGE_KEY)
        path = Path(builder.get_outfilename(docname))
        if language is None or not path.is_file():
            continue
        html = path.read_text(encoding="utf-8")
        translated = translate_theme(html, language)
        if translated != html:
            path.write_text(translated, encoding="utf-8")


class HandDirective(SphinxDirective):
    """``.. kowah-hand:: CARDS``: card pictures of a hand, from :mod:`kowah.svg`."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False

    def run(self) -> list[nodes.Node]:
        _note_dependencies(self, "svg.py")
        try:
            html = hand_html(self.arguments[0])
        except ValueError as error:
            raise self.error(f"kowah-hand: {error}") from None
        return [nodes.raw("", html, format="html")]


class CliDirective(SphinxDirective):
    """``.. kowah-cli:: [SUBCOMMAND]``: the command's help text, from its argument parser."""

    optional_arguments = 1
    has_content = False
    option_spec = {"columns": directives.positive_int}  # noqa: RUF012

    def run(self) -> list[nodes.Node]:
        subcommand = self.arguments[0].strip() if self.arguments else None
        columns = self.options.get("columns", HELP_COLUMNS)
        _note_dependencies(self, "cli.py")
        try:
            text = cli_help(subcommand, columns)
        except ValueError as error:
            raise self.error(str(error)) from None
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives."""
    app.add_directive("kowah-rules", RulesDirective)
    app.add_directive("kowah-cli", CliDirective)
    app.add_directive("kowah-hand", HandDirective)
    app.connect("html-page-context", _mark_language)
    app.connect("build-finished", _translate_theme)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
