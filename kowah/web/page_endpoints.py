"""The endpoints that are not a game's: the page (``/`` and ``/games/{id}``), the card
pictures (``/cards/{code}.svg``) and the rules (``GET /api/rules``), at module level; the
application (:func:`kowah.web.app.create_app`) routes to them.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from kowah.cards import Card
from kowah.errors import KowahError
from kowah.i18n import LANGUAGES
from kowah.rendering import FORMATS, render_rules
from kowah.svg import back as back_svg
from kowah.svg import card as card_svg
from kowah.web.answers import answer
from kowah.web.language import LANG_COOKIE, language, translator_for
from kowah.web.page import page_in
from kowah.web.problems import Problem
from kowah.web.text import MESSAGES, words

__all__ = ["card_picture", "page", "rules"]


async def page(request: Request) -> Response:
    """The page in the request's language (``?lang=`` also sets the cookie that keeps it)."""
    lang = language(request)
    t = words(lang)
    response = HTMLResponse(page_in(t.language), headers={"cache-control": "no-cache",
                                                     "content-language": lang})
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 86400, samesite="strict")
    return response


async def card_picture(request: Request) -> Response:
    """A card's picture (or the back's), titled with its name in the request's language."""
    code = request.path_params["code"]
    t = translator_for(request)
    if code == "back":
        text = back_svg(title=t.gettext("web", MESSAGES["back"]))
    else:
        try:
            card = Card.parse(code)
        except KowahError:
            return PlainTextResponse("not found\n", status_code=404)
        text = card_svg(card, title=t.card_name(card))
    return Response(text, media_type="image/svg+xml", headers={"cache-control": "public, max-age=3600"})


async def rules(request: Request) -> Response:
    """``GET /api/rules``: the rules in the request's language and ``?format=``."""
    lang = language(request)
    t = words(lang)
    format = request.query_params.get("format", "html")
    if format not in FORMATS:
        raise Problem.field(t, "format", "format")
    return answer({"lang": lang, "format": format, "rules": render_rules(t, format)})
