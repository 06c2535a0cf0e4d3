"""The code stays clean: ruff, configured in pyproject.toml, finds nothing."""

import subprocess
import sys

from tests.conftest import REPO


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "narrator", "scripts", "tests", "benchmarks", "dev"], cwd=REPO,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
