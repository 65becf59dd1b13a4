"""The built documentation in Chromium: the start page's first screen, a translated page read as
a screen reader reads it, and no sideways scroll on a phone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from webpage import skip_without_browser

skip_without_browser()

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.xdist_group("docs-site")

#: Words only English among the languages of the pages: a text with one of them is English.
ENGLISH_WORDS = re.compile(
    r"\b(?:the|of|and|to|with|for|this|that|page|pages|next|previous|back|top|toggle|search|"
    r"contents|made|copyright|rules|cards|how|where|from|play|your|guide|guides|install|"
    r"reference|explanation|tutorials?|changelog|contributing|source|issue|tracker|light|dark)\b",
    re.IGNORECASE)

#: An address, the same in every language.
URL = re.compile(r"^https?://\S+$")

#: The text a screen reader reads on the page (text nodes, and the labels of controls), each
#: with the language of its element: the nearest ``lang``, as the browser resolves it.
READ_ALOUD = """() => {
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const element = node.parentElement;
    if (!element || element.closest('script, style, svg, [hidden], [aria-hidden="true"]')) continue;
    const style = getComputedStyle(element);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    const text = node.textContent.replace(/\\s+/g, ' ').trim();
    if (text) found.push([text, element.closest('[lang]').getAttribute('lang')]);
  }
  for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (element.closest('svg')) continue;
    for (const name of ['aria-label', 'title', 'placeholder']) {
      const text = (element.getAttribute(name) || '').trim();
      if (text) found.push([text, element.closest('[lang]').getAttribute('lang')]);
    }
  }
  return found;
}"""



def test_the_start_page_shows_the_example_and_both_play_links_in_the_first_screen(
        browser: Browser, docs_site: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto((docs_site / "index.html").as_uri())
    start = page.locator(".kowah-start")
    shown = {
        "what Kowah is": start.locator("p").first,
        "the cards": start.locator(".kowah-hand svg").first,
        "the Python example": start.locator("div.highlight-pycon"),
        "play in your browser": start.locator('.kowah-play a[href="browser.html"]'),
        "play in the terminal": start.locator('.kowah-play a[href="terminal.html"]'),
    }
    for name, element in shown.items():
        box = element.bounding_box()
        assert box is not None and element.is_visible(), name
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800, (name, box)
    example = start.locator("div.highlight-pycon").inner_text()
    assert example.count(">>> ") == 3 and "import kowah" in example
    links = start.locator(".kowah-play a").all_inner_texts()
    assert links == ["Play in your browser", "Play in the terminal"]
    page.close()


@pytest.mark.parametrize("path", ["rules/id.html", "sources/id.html"])
def test_a_translated_page_has_no_english_outside_elements_marked_english(
        browser: Browser, docs_site: Path, path: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto((docs_site / path).as_uri())
    assert page.evaluate("document.documentElement.lang") == "id"
    read: list[list[str]] = page.evaluate(READ_ALOUD)
    page.close()
    english = [text for text, lang in read
               if lang != "en" and ENGLISH_WORDS.search(text) and not URL.match(text)]
    assert english == []
    marked = [text for text, lang in read if lang == "en"]
    assert "Tutorials" in marked and len(read) > 100  # the check sees the navigation and the page


def test_the_english_check_finds_english(browser: Browser, docs_site: Path) -> None:
    """The same reading of the English start page, with its English unmarked, finds it."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto((docs_site / "index.html").as_uri())
    page.evaluate("document.documentElement.lang = 'id'")
    read: list[list[str]] = page.evaluate(READ_ALOUD)
    page.close()
    assert len([text for text, lang in read if lang != "en" and ENGLISH_WORDS.search(text)]) > 20


def test_no_page_scrolls_sideways_on_a_phone(browser: Browser, docs_site: Path) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    pages = sorted(path for path in docs_site.rglob("*.html") if "_modules" not in path.parts)
    assert len(pages) > 60
    wide = []
    for path in pages:
        page.goto(path.as_uri())
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide.append((path.relative_to(docs_site).as_posix(), width))
    page.close()
    assert wide == []
