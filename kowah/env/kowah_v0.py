"""The environment under its PettingZoo name, as PettingZoo's classic games are imported.

``metadata["name"]`` is ``"kowah_v0"``; as ``from pettingzoo.classic import texas_holdem_v4``
gives ``texas_holdem_v4.env()``, this module gives ``kowah_v0.env()`` and
``kowah_v0.raw_env()`` (:mod:`kowah.env.aec`):

>>> from kowah.env import kowah_v0
>>> environment = kowah_v0.env()
>>> environment.metadata["name"]
'kowah_v0'
"""

from __future__ import annotations

from kowah.env.aec import env, raw_env

__all__ = ["env", "raw_env"]
