"""The theme's own words on the pages written in another language than the site's.

Furo writes its labels in English, some through the site's message catalogue (one language
for the whole site), others as they are in its templates ("Toggle site navigation sidebar",
the icons' titles). A page written in Czech must not have English buttons that a screen
reader then reads with Czech rules, so :func:`translate_theme` rewrites them in the page's
language, outside the page's content (which is the package's text, already translated).
Languages without a table here keep the theme's English.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["LABELS", "translate_theme"]

#: The theme's labels (as Furo writes them, whitespace aside) in each language of the pages.
LABELS: dict[str, dict[str, str]] = {
    "it": {
        "Link to this heading": "Link a questa sezione",
        "Toggle navigation": "Mostra o nascondi la sezione",
        "Toggle navigation of {title}": "Mostra o nascondi la navigazione di {title}",
        "Skip to content": "Vai al contenuto",
        "Back to top": "Torna su",
        "Previous": "Precedente",
        "Next": "Successiva",
        "Home": "Inizio",
        "On this page": "In questa pagina",
        "Contents": "Indice",
        "Index": "Indice analitico",
        "Search": "Cerca",
        "View this page": "Visualizza questa pagina",
        "Toggle site navigation sidebar": "Mostra o nascondi la navigazione del sito",
        "Toggle table of contents sidebar": "Mostra o nascondi l'indice della pagina",
        "Toggle Light / Dark / Auto color theme": "Cambia tema: chiaro, scuro o automatico",
        "Menu": "Menu",
        "Expand": "Espandi",
        "Light mode": "Tema chiaro",
        "Dark mode": "Tema scuro",
        "Auto light/dark, in light mode": "Chiaro o scuro automatico, ora chiaro",
        "Auto light/dark, in dark mode": "Chiaro o scuro automatico, ora scuro",
        "Project": "Progetto",
        "Source code": "Codice sorgente",
        "Issue tracker": "Segnalazioni",
        "Changelog": "Novità",
        "Contributing": "Come contribuire",
        "Made with {sphinx} and {furo} by {author}": "Realizzato da {author} con {sphinx} e {furo}",
    },
    "cs": {
        "Link to this heading": "Odkaz na tento oddíl",
        "Toggle navigation": "Zobrazit nebo skrýt oddíl",
        "Toggle navigation of {title}": "Zobrazit nebo skrýt navigaci: {title}",
        "Skip to content": "Přejít na obsah",
        "Back to top": "Zpět nahoru",
        "Previous": "Předchozí",
        "Next": "Další",
        "Home": "Úvod",
        "On this page": "Na této stránce",
        "Contents": "Obsah",
        "Index": "Rejstřík",
        "Search": "Hledat",
        "View this page": "Zobrazit tuto stránku",
        "Toggle site navigation sidebar": "Zobrazit nebo skrýt navigaci webu",
        "Toggle table of contents sidebar": "Zobrazit nebo skrýt obsah stránky",
        "Toggle Light / Dark / Auto color theme": "Přepnout vzhled: světlý, tmavý nebo automatický",
        "Menu": "Nabídka",
        "Expand": "Rozbalit",
        "Light mode": "Světlý vzhled",
        "Dark mode": "Tmavý vzhled",
        "Auto light/dark, in light mode": "Automaticky světlý nebo tmavý, nyní světlý",
        "Auto light/dark, in dark mode": "Automaticky světlý nebo tmavý, nyní tmavý",
        "Project": "Projekt",
        "Source code": "Zdrojový kód",
        "Issue tracker": "Hlášení chyb",
        "Changelog": "Seznam změn",
        "Contributing": "Jak přispět",
        "Made with {sphinx} and {furo} by {author}":
            "Vytvořeno pomocí {sphinx} a\u00a0{furo}, autor: {author}",
    },
    "ms": {
        "Link to this heading": "Pautan ke tajuk ini",
        "Toggle navigation": "Tunjukkan atau sembunyikan bahagian",
        "Toggle navigation of {title}": "Tunjukkan atau sembunyikan navigasi {title}",
        "Skip to content": "Langkau ke kandungan",
        "Back to top": "Kembali ke atas",
        "Previous": "Sebelumnya",
        "Next": "Seterusnya",
        "Home": "Laman utama",
        "On this page": "Dalam halaman ini",
        "Contents": "Kandungan",
        "Index": "Indeks",
        "Search": "Cari",
        "View this page": "Lihat halaman ini",
        "Toggle site navigation sidebar": "Tunjukkan atau sembunyikan navigasi laman",
        "Toggle table of contents sidebar": "Tunjukkan atau sembunyikan kandungan halaman",
        "Toggle Light / Dark / Auto color theme": "Tukar tema: cerah, gelap atau automatik",
        "Menu": "Menu",
        "Expand": "Kembangkan",
        "Light mode": "Tema cerah",
        "Dark mode": "Tema gelap",
        "Auto light/dark, in light mode": "Cerah atau gelap secara automatik, kini cerah",
        "Auto light/dark, in dark mode": "Cerah atau gelap secara automatik, kini gelap",
        "Project": "Projek",
        "Source code": "Kod sumber",
        "Issue tracker": "Penjejak isu",
        "Changelog": "Log perubahan",
        "Contributing": "Cara menyumbang",
        "Made with {sphinx} and {furo} by {author}": "Dibina dengan {sphinx} dan {furo} oleh {author}",
    },
    "id": {
        "Link to this heading": "Tautan ke judul ini",
        "Toggle navigation": "Tampilkan atau sembunyikan bagian",
        "Toggle navigation of {title}": "Tampilkan atau sembunyikan navigasi {title}",
        "Skip to content": "Langsung ke konten",
        "Back to top": "Kembali ke atas",
        "Previous": "Sebelumnya",
        "Next": "Berikutnya",
        "Home": "Beranda",
        "On this page": "Di halaman ini",
        "Contents": "Daftar isi",
        "Index": "Indeks",
        "Search": "Cari",
        "View this page": "Lihat halaman ini",
        "Toggle site navigation sidebar": "Tampilkan atau sembunyikan navigasi situs",
        "Toggle table of contents sidebar": "Tampilkan atau sembunyikan daftar isi halaman",
        "Toggle Light / Dark / Auto color theme": "Ganti tema: terang, gelap, atau otomatis",
        "Menu": "Menu",
        "Expand": "Perluas",
        "Light mode": "Tema terang",
        "Dark mode": "Tema gelap",
        "Auto light/dark, in light mode": "Terang atau gelap otomatis, sekarang terang",
        "Auto light/dark, in dark mode": "Terang atau gelap otomatis, sekarang gelap",
        "Project": "Proyek",
        "Source code": "Kode sumber",
        "Issue tracker": "Pelacak isu",
        "Changelog": "Catatan perubahan",
        "Contributing": "Cara berkontribusi",
        "Made with {sphinx} and {furo} by {author}": "Dibuat dengan {sphinx} dan {furo} oleh {author}",
    },
    "es": {
        "Link to this heading": "Enlace a este encabezado",
        "Toggle navigation": "Mostrar u ocultar la sección",
        "Toggle navigation of {title}": "Mostrar u ocultar la navegación de {title}",
        "Skip to content": "Saltar al contenido",
        "Back to top": "Volver arriba",
        "Previous": "Anterior",
        "Next": "Siguiente",
        "Home": "Inicio",
        "On this page": "En esta página",
        "Contents": "Contenido",
        "Index": "Índice",
        "Search": "Buscar",
        "View this page": "Ver esta página",
        "Toggle site navigation sidebar": "Mostrar u ocultar la navegación del sitio",
        "Toggle table of contents sidebar": "Mostrar u ocultar el índice de la página",
        "Toggle Light / Dark / Auto color theme": "Cambiar el tema: claro, oscuro o automático",
        "Menu": "Menú",
        "Expand": "Desplegar",
        "Light mode": "Tema claro",
        "Dark mode": "Tema oscuro",
        "Auto light/dark, in light mode": "Claro u oscuro automático, ahora claro",
        "Auto light/dark, in dark mode": "Claro u oscuro automático, ahora oscuro",
        "Project": "Proyecto",
        "Source code": "Código fuente",
        "Issue tracker": "Incidencias",
        "Changelog": "Registro de cambios",
        "Contributing": "Cómo contribuir",
        "Made with {sphinx} and {furo} by {author}": "Hecho con {sphinx} y {furo} de {author}",
    },
}

_CREDIT = re.compile(
    r"Made with\s*(?P<sphinx><a [^>]*>Sphinx</a>)\s*and\s*(?P<author><a [^>]*>@pradyunsg</a>)'s\s*"
    r"(?P<furo><a [^>]*>Furo</a>)")
#: Where the page's own content starts and ends (marked by the kowah_docs extension).
_CONTENT = re.compile(r'<div class="kowah-page" lang="[^"]*">.*?</article>', re.DOTALL)


def _replacement(translated: str) -> Callable[[re.Match[str]], str]:
    """The label *translated*, between what came before and after the English one."""
    return lambda match: f"{match[1] or match[3]}{translated}{match[2] or match[4]}"


def _theme_part(html: str, language: str) -> str:
    labels = LABELS[language]
    for english, translated in labels.items():
        if "{" in english:
            continue
        words = r"\s+".join(map(re.escape, english.split()))
        pattern = rf'((?:aria-label|title|placeholder)="){words}(")|(>\s*){words}(\s*<)'
        html = re.sub(pattern, _replacement(translated), html)
    toggle = labels["Toggle navigation of {title}"]
    # The title is the English title of a section of the site: in text, it is marked so.
    html = re.sub(r"(>\s*)Toggle navigation of ([^<\"]+)",
                  lambda m: m[1] + toggle.format(title=f'<span lang="en">{m[2]}</span>'), html)
    # An attribute cannot mark a part of itself as English: it names no section (the control
    # sits beside the section's link, which a screen reader reads in its own language).
    html = re.sub(r"(=\")Toggle navigation of ([^<\"]+)", lambda m: m[1] + labels["Toggle navigation"], html)
    credit = labels["Made with {sphinx} and {furo} by {author}"]
    return _CREDIT.sub(lambda m: credit.format(sphinx=m["sphinx"], furo=m["furo"],
                                                author=m["author"]), html)


def translate_theme(html: str, language: str) -> str:
    """*html*, a built page written in *language*, with the theme's labels in that language
    (the page's content is left as it is).

    >>> page = '<a>Back to top</a><div class="kowah-page" lang="cs">Back to top</article>'
    >>> translate_theme(page, "cs")
    '<a>Zpět nahoru</a><div class="kowah-page" lang="cs">Back to top</article>'
    >>> translate_theme('<span>Toggle navigation of Cards</span>', "es")
    '<span>Mostrar u ocultar la navegación de <span lang="en">Cards</span></span>'
    """
    if language not in LABELS:
        return html
    parts: list[str] = []
    start = 0
    for match in _CONTENT.finditer(html):
        parts += [_theme_part(html[start:match.start()], language), match[0]]
        start = match.end()
    parts.append(_theme_part(html[start:], language))
    # Sphinx's title of the headings' links is in the page's content, but it is the theme's word.
    return "".join(parts).replace('title="Link to this heading"',
                                  f'title="{LABELS[language]["Link to this heading"]}"')
