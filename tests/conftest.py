"""Hypothesis profiles for the test suite.

``ci`` (the default) keeps the whole suite fast and free of timing flakiness; ``thorough`` runs
many more examples. Choose one with ``HYPOTHESIS_PROFILE=thorough pytest``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    deadline=None,
    max_examples=1000,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
