"""The environments' text rendering: the table as the terminal game shows it to one seat.

The environments are an interface of the library, like the terminal game and the web table:
they render through the text layer (:mod:`kowah.i18n`) and the table view the terminal game
draws with (``kowah._view``, not the game itself), imported only when something is rendered.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kowah.deal import Observation

__all__ = ["render_table"]


def render_table(observation: Observation, lang: str) -> str:
    """The table as the terminal game shows it to ``observation.seat``, in the language *lang*
    (a tag of :data:`kowah.i18n.LANGUAGES`), without colours."""
    from kowah._view import render_table as render
    from kowah.i18n import translator

    return render(observation, translator(lang))
