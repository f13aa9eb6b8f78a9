"""The learner's progress, kept beside the answers: the last verdict per puzzle, hints revealed.

`jacpuzzles list` shows statuses without running anything: a file whose content is unchanged
since its last check shows that check's status; a changed file shows as "unchecked".
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

STATE_FILE = ".jacpuzzles-state.json"


def digest(path: Path) -> str | None:
    """A fingerprint of a file's bytes, or None when it cannot be read."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _load(root: Path) -> dict[str, Any]:
    try:
        data = json.loads((root / STATE_FILE).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(root: Path, data: dict[str, Any]) -> None:
    try:
        (root / STATE_FILE).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    except OSError:
        pass  # a read-only folder only loses the memory


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    found = data.get(key)
    return dict(found) if isinstance(found, dict) else {}


def verdicts(root: Path) -> dict[str, dict[str, str]]:
    """The recorded verdicts under `root`: name -> {"status", "digest"}."""
    found = _load(root).get("verdicts", {})
    return found if isinstance(found, dict) else {}


def hints_shown(root: Path, name: str) -> int:
    """How many hints of puzzle `name` have been revealed under `root`."""
    found = _load(root).get("hints", {})
    value = found.get(name, 0) if isinstance(found, dict) else 0
    return value if isinstance(value, int) else 0


def record(root: Path, results: dict[str, tuple[str, str | None]]) -> None:
    """Remember `name -> (status, digest)` for each checked puzzle."""
    if not results:
        return
    data = _load(root)
    table = _table(data, "verdicts")
    table.update({name: {"status": status, "digest": d or ""} for name, (status, d) in results.items()})
    _save(root, {**data, "verdicts": table})


def record_hint(root: Path, name: str, shown: int) -> None:
    """Remember that `shown` hints of `name` have been revealed."""
    data = _load(root)
    table = _table(data, "hints")
    _save(root, {**data, "hints": {**table, name: shown}})
