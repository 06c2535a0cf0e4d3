"""Every Python a foreign-platform test starts imports this first (PYTHONPATH holds this folder):
with NARRATOR_FOREIGN set, the process takes on that system (see simulation.py)."""

import os

if os.environ.get("NARRATOR_FOREIGN"):
    import simulation

    simulation.install(os.environ["NARRATOR_FOREIGN"])
