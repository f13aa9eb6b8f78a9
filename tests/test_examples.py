"""The scripts in examples/, run as a learner runs them: in a fresh process, from the repository root."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import REPO

TRAIN = REPO / "examples" / "train_asymmetric_lookup.py"


@pytest.mark.skipif(
    importlib.util.find_spec("optax") is None,
    reason='examples/train_asymmetric_lookup.py needs optax: pip install -e ".[examples]"',
)
def test_asymmetric_lookup_learns_to_pick_the_targets() -> None:
    # `python examples/x.py` puts examples/ first on the path, not the root: name the root so the
    # script finds this checkout's `checker` even where the package is not installed.
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "COLUMNS": "120", "PYTHONPATH": path}
    result = subprocess.run(
        [sys.executable, str(TRAIN)], capture_output=True, text=True, cwd=REPO, env=env,
        stdin=subprocess.DEVNULL, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    # It starts on the wrong entries (20 and 10, loss 2000), so a pass means it learned.
    first_step = next(line for line in lines if re.match(r"\W*1\W", line))
    assert "2000" in first_step and "[20, 10]" in first_step, first_step
    assert lines[-1] == "final picks: [40, 70]", result.stdout
