"""kowah.env.ids, the action table, is pure Python: it imports without the rl extra (issue 29)."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_the_action_table_imports_without_numpy_gymnasium_or_pettingzoo() -> None:
    script = textwrap.dedent("""
        import sys
        for name in ("numpy", "gymnasium", "pettingzoo"):
            sys.modules[name] = None  # as if the rl extra were not installed
        import kowah.env.ids
        from kowah.env import ids
        from kowah import Action, Card
        assert ids.action_to_id(Action.discard(1, Card.C5)) == 15 and ids.N_ACTIONS == 69
        assert kowah.env.ids.id_to_action(64, seat=0) == Action.declare(0, Card.RF)
        import kowah.env
        try:
            kowah.env.single
        except ImportError as error:
            print(error)
        else:
            raise SystemExit("kowah.env.single without numpy")
        assert "numpy" not in sys.modules or sys.modules["numpy"] is None
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("kowah.env needs numpy, gymnasium and pettingzoo: pip install 'kowah[rl]'")
