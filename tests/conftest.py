"""Hypothesis profiles for the test suite, and Ctrl-C as a terminal gives it.

``ci`` (the default) keeps the whole suite fast and free of timing flakiness; ``thorough`` runs
many more examples. Choose one with ``HYPOTHESIS_PROFILE=thorough pytest``.
"""

from __future__ import annotations

import os
import signal

from hypothesis import HealthCheck, settings

#: The static site's session fixtures (site, site_url), built once for all the browser tests.
pytest_plugins = ["sitepage"]

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

# A test run started in the background of a non-interactive shell inherits SIGINT ignored, and
# so would every program the tests start (Python then installs no KeyboardInterrupt): the tests
# that press Ctrl-C need it as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
