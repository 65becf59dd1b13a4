"""Sphinx extension: ``.. kowah-cards:: LANG``, the money pack's card pictures with their names.

The pictures are :func:`kowah.svg.card`'s, inlined, each titled with the card's name in *LANG*;
the three honours of the Kowah deck are marked, and the twelve cards it leaves out (R2) are
shown as left out.
"""

from __future__ import annotations

import html
from typing import Any

from docutils import nodes
from kowah_docs import LANGUAGE_KEY
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from kowah import svg
from kowah.cards import KOWAH_DECK, Card
from kowah.i18n import LANGUAGES, translator

__all__ = ["cards_html", "setup"]


def cards_html(language: str) -> str:
    """The pack as an HTML list of figures, in *language*."""
    t = translator(language)
    inside = t.gettext("web", "in the Kowah deck")
    outside = t.gettext("web", "left out")
    items = []
    for card in Card:
        name = t.card_name(card)
        mark = ""
        css = "kowah-card"
        if card.is_honour:
            kept = card in KOWAH_DECK
            mark = f'<span class="kowah-card-mark">{html.escape(inside if kept else outside)}</span>'
            css += " kowah-honour" if kept else " kowah-left-out"
        items.append(f'<li class="{css}"><figure>{svg.card(card, title=name, size=72)}'
                     f'<figcaption><code>{card.code}</code> {html.escape(name)}{mark}</figcaption>'
                     f'</figure></li>')
    back = t.gettext("web", "Card back")
    items.append(f'<li class="kowah-card"><figure>{svg.back(title=back, size=72)}'
                 f'<figcaption>{html.escape(back)}</figcaption></figure></li>')
    return f'<ul class="kowah-cards" lang="{language}">\n' + "\n".join(items) + "\n</ul>\n"


class CardsDirective(SphinxDirective):
    """``.. kowah-cards:: LANG``."""

    required_arguments = 1
    has_content = False

    def run(self) -> list[nodes.Node]:
        language = self.arguments[0].strip()
        if language not in LANGUAGES:
            raise self.error(f"kowah-cards: unknown language {language!r} "
                             f"(the languages are {', '.join(LANGUAGES)})")
        self.env.metadata[self.env.docname][LANGUAGE_KEY] = language
        return [nodes.raw("", cards_html(language), format="html")]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive."""
    app.add_directive("kowah-cards", CardsDirective)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
