"""``python -m kowah``: the ``kowah`` command."""

import sys

from kowah.cli import main

sys.exit(main())
