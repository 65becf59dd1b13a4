"""Sphinx configuration of the kowah documentation.

Build with ``python3 dev.py docs`` (HTML in ``docs/_build/html``). Everything the pages show
comes from this folder and the installed package; the build needs no network and no
graphviz (the turn-flow diagram is committed as SVG next to its DOT source).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

from kowah_facts import rst_prolog as _facts  # noqa: E402

import kowah  # noqa: E402  (after the path set-up, like the extension)

project = "kowah"
author = "The kowah developers"
copyright = "The kowah developers, MIT licence"
release = kowah.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "myst_parser",
    "kowah_docs",
    "kowah_cards",
    "kowah_links",
    "kowah_figures",
]

source_suffix = {".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_ext", "_templates", "**/*.inc"]
templates_path = ["_templates"]

# The project's links (repository, issue tracker, changelog, contributing guide), written once
# in pyproject.toml and shown in every page's footer (docs/_templates/page.html); |repository|
# is the address in the pages (install.rst's clone command).
_URLS = tomllib.loads((HERE.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]

# The numbers the pages state about the project (|n-languages|, |rulings| ...), taken from
# the package when the pages are built (docs/_ext/kowah_facts.py).
rst_prolog = _facts() + f".. |repository| replace:: {_URLS['Repository']}\n"
# The measured figures (win rates, speeds) come from the benchmarks' results files
# (benchmarks/results/*.json) through the :measured: role (docs/_ext/kowah_figures.py).

html_context = {"project_links": [("Source code", _URLS["Repository"]),
                                  ("Issue tracker", _URLS["Issues"])]}
language = "en"
today_fmt = "%Y"

# Autodoc: the public API as each module's __all__ lists it, with type hints in signatures.
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# Defaults as written in the source (`rules=KOWAH_RULES`), not the whole repr of the value.
autodoc_preserve_defaults = True
autodoc_class_signature = "mixed"
autodoc_default_options = {"members": True, "show-inheritance": True}
python_use_unqualified_type_names = True

# Doctests (``sphinx-build -b doctest``, run by ``python3 dev.py test``).
# Only the ``.. doctest::`` blocks of the pages: the docstrings' examples that autodoc shows
# are run by pytest (--doctest-modules) in their modules' namespaces.
doctest_test_doctest_blocks = ""
trim_doctest_flags = True

# MyST reads the Markdown files the project keeps at its root (changelog, glossary).
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]

# Offline HTML: Furo, a maintained and accessible theme with light and dark modes (following
# the reader's system setting, with a switch) and a layout for phones; it bundles its own
# scripts and uses the system's fonts, so the pages load nothing from elsewhere (checked by
# tests/test_docs.py). No MathJax.
html_theme = "furo"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
html_title = f"kowah {release}"
html_theme_options = {
    "navigation_with_keys": True,
    "top_of_page_buttons": [],
}
html_show_sourcelink = False
html_copy_source = False
