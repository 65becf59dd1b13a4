"""The browser table's page: ``page.html`` with its placeholders filled in one language.

The page holds no script of its own: its modules (``static/js``) read every word from the JSON
block that :func:`render_page` embeds (:func:`kowah.web.text.page_strings`, plus the language
list, the AI levels and the name of the language cookie).

>>> from kowah.web.text import words
>>> page = render_page(words("cs"))
>>> '<html lang="cs">' in page, "Úplná pravidla" in page, "$" in page.split("<body>")[1][:2000]
(True, True, False)
"""

from __future__ import annotations

import functools
import html
import json
from pathlib import Path
from string import Template

from kowah.cards import KOWAH_DECK, Card
from kowah.i18n import Translator
from kowah.rendering import render_rules
from kowah.web.ai_players import label, offered
from kowah.web.language import LANG_COOKIE  # the scripts get its name from the page
from kowah.web.text import LANGUAGE_NAMES, MESSAGES, count_text, page_strings, words

__all__ = ["CLOCK_CHOICES", "page_in", "render_page"]

_PAGE = Template((Path(__file__).resolve().parent / "page.html").read_text(encoding="utf-8"))

#: The turn clocks the "Play with friends" form offers, in seconds.
CLOCK_CHOICES = (30, 60, 120, 300)


def _pack_html(t: Translator) -> str:
    """The money pack: every kind with its name, marked in or out of the Kowah deck (R1, R2)."""
    esc = html.escape
    inside, outside = t.gettext("web", MESSAGES["pack.in"]), t.gettext("web", MESSAGES["pack.out"])
    items = []
    for card in Card:
        name = t.card_name(card)
        status = ""
        css = "pack-card"
        if card.is_honour:
            kept = card in KOWAH_DECK
            status = f'<span class="badge">{esc(inside if kept else outside)}</span>'
            css += " honour" if kept else " left-out"
        items.append(f'<li class="{css}" data-pack-card="{card.code}"><img src="/cards/{card.code}.svg'
                     f'?lang={t.language}" alt="" width="48" height="67"><span class="name">'
                     f'{esc(name)}</span>{status}</li>')
    return "\n".join(items)


def _rules_html(t: Translator, pack: str) -> str:
    """The players' edition of the rules, the pack unfolding under its origin line."""
    rules = render_rules(t, "html", edition="players", id_prefix="rules-", heading_level=2)
    origin_end = rules.find("</p>", rules.find('<p class="origin">'))
    if origin_end < 0:
        return pack + rules
    cut = origin_end + len("</p>")
    return rules[:cut] + "\n" + pack + rules[cut:]


def page_in(language: str) -> str:
    """The page in *language*, rendered once per language and set of offered players (the
    server answers every ``GET /`` with it)."""
    return _page_in(language, offered())


@functools.lru_cache(maxsize=16)
def _page_in(language: str, players: tuple[str, ...]) -> str:
    return render_page(words(language))  # *players*: the cache's key (they are in the page)


def render_page(t: Translator) -> str:
    """The page in *t*'s language; its scripts get the strings as a JSON block (no inline code)."""
    esc = html.escape
    strings = page_strings(t)
    options = "".join(
        f'<option value="{code}" lang="{code}"{" selected" if code == t.language else ""}>'
        f'{esc(name)}</option>' for code, name in LANGUAGE_NAMES.items())
    data = json.dumps({"lang": t.language, "strings": strings, "players": list(offered()),
                       "languages": LANGUAGE_NAMES, "cookie": LANG_COOKIE},
                      ensure_ascii=False).replace("<", "\\u003c")
    words = {key.replace(".", "_").replace("-", "_"): esc(t.gettext("web", message))
             for key, message in MESSAGES.items()}
    for seat in (1, 2):
        words[f"friends_name_{seat}"] = esc(t.gettext("web", MESSAGES["friends.name"]).format(seat=seat))
    strengths = "".join(
        f'<option value="{esc(name)}"{" selected" if name == "normal" else ""}>'
        f'{esc(label(t, name))}</option>' for name in offered())
    clocks = f'<option value="">{words["friends_clock_none"]}</option>' + "".join(
        f'<option value="{seconds}">{esc(count_text(strings, "count.seconds", seconds))}</option>'
        for seconds in CLOCK_CHOICES)
    pack = (f'<details class="pack" data-pack><summary>{words["pack_show"]}</summary>'
            f'<p>{words["pack_about"]}</p><ul class="pack-grid">{_pack_html(t)}</ul></details>')
    return _PAGE.substitute(words, lang=t.language, language_options=options,
                            strength_options=strengths, clock_options=clocks,
                            rules=_rules_html(t, pack), data=data)
