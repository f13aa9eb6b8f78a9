"""The zeros of each puzzle's expected Jacobian, and the inputs that compete for an output, per
puzzle and variant: searched once (`_zero_search`), shipped with the kit in a table
(`checker/_data/zeros/`) and cached on disk for a puzzle the table lacks. The search is
seed-independent: the zeros are a property of `f`, so every seed checks them.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path
from typing import Any

import numpy as np

from checker.engine import _numerics
from checker.engine._catalog import Puzzle
from checker.engine._zero_lines import (
    ALONE_BAND,
    ALONE_SHORT,
    ALONE_WIDTH,
    BISECTIONS,
    GRID,
    LINES,
    POLISH,
    ZERO_ULPS,
    Sampler,
    alone,
)
from checker.engine._zero_search import (
    BEYOND_ZEROS,
    HELD_LINES,
    HELD_SPREAD,
    HELD_ZEROS,
    OFFSET_LEVEL,
    OFFSET_SPREAD,
    OFFSET_ZEROS,
    PINNED,
    PINNED_SEEN,
    PINNED_ZEROS,
    SCALED_ZEROS,
    SCALING,
    ZEROS,
    ZEROS_ALONE,
    Found,
    centred_args,
    held_args,
    pins_per_argument,
    search,
)
from checker.engine._zero_shrink import (
    AGREEMENT,
    BESIDE,
    BESIDE_BAND,
    BESIDE_STEPS,
    NOISE_SHARE,
    SHRINK_FLOOR,
    SHRINK_VALUES,
    ZERO_SHARE,
)

__all__ = ["TABLE", "Found", "Sampler", "found", "key", "searched", "shipped", "shipped_rows", "write_table"]

def key(puzzle: Puzzle) -> str:
    """The name of `puzzle`'s rows in `TABLE` and its file in the cache: a digest of what the search reads."""
    shapes = [(a.name, a.shape, a.dtype, a.low, a.high, a.avoid, a.static, a.sampler, a.cotangent) for a in puzzle.args]
    text = f"{puzzle.name}|{puzzle.variant!r}|{puzzle.code}|{puzzle.backward}|{puzzle.outs!r}|{shapes!r}|{puzzle.guard}"
    # Not the JAX version: a zero found under one version is a zero to within ulps under the next,
    # and the expected Jacobians at it are computed afresh anyway; so the shipped table holds.
    text += f"|{LINES}|{GRID}|{ZEROS}|{BISECTIONS}|{ZERO_ULPS}|{BESIDE}|{BESIDE_BAND}|{len(BESIDE_STEPS)}"
    text += f"|{PINNED}|{PINNED_ZEROS}|{PINNED_SEEN}|{SHRINK_VALUES}|{SHRINK_FLOOR}|{POLISH}|{NOISE_SHARE}|{ZERO_SHARE}"
    if alone(puzzle):
        text += f"|alone {ALONE_BAND} {ZEROS_ALONE} {ALONE_SHORT} {ALONE_WIDTH}"
    if pins_per_argument(puzzle):
        text += "|a line per entry pinned"
    if any("ties" in a.avoid for a in puzzle.args):
        text += "|champions"
    if held_args(puzzle):
        text += f"|held {HELD_SPREAD} {HELD_LINES} {HELD_ZEROS}"
    if centred_args(puzzle):
        text += f"|offset {OFFSET_LEVEL} {OFFSET_SPREAD} {OFFSET_ZEROS} {centred_args(puzzle)} and beyond"
    if any(m > 1 for a in puzzle.args for m in a.magnitudes):
        text += f"|beyond {BEYOND_ZEROS} {[a.magnitudes for a in puzzle.args]}"
    text += f"|scaled {SCALED_ZEROS} {SCALING}|agreement {AGREEMENT}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def found(puzzle: Puzzle, sampler: Sampler) -> Found:
    """The zero-crossing draws and competing groups of `puzzle` (cached on disk and in memory)."""
    return _found(puzzle, key(puzzle), sampler)


# The search's results for every variant of every puzzle, shipped with the kit, so that no check
# waits on a search (`python -m checker.authoring._zero_table` rewrites it; a test fails when it
# is stale): one file per puzzle, its variants' rows in it, so that a check opens only its own
# (one file of all 3000 rows took 19 ms to open, a fiftieth of a warm check). A puzzle the table
# lacks (a catalog being written) is searched on first use and cached.
TABLE = Path(__file__).resolve().parents[1] / "_data" / "zeros"


@functools.lru_cache(maxsize=8)
def shipped(name: str) -> Any:
    """The shipped rows of puzzle `name`'s variants, opened lazily ({} when there are none)."""
    try:
        return np.load(TABLE / f"{name}.npz", allow_pickle=False)
    except (OSError, ValueError):
        return {}


def shipped_rows() -> dict[str, str]:
    """Every shipped row's name, with the puzzle it belongs to (for the table's maintenance)."""
    return {row: path.stem for path in sorted(TABLE.glob("*.npz")) for row in shipped(path.stem).files}


def _from_table(puzzle: Puzzle, key: str) -> Found | None:
    table = shipped(puzzle.name)
    if f"{key}-labels" not in getattr(table, "files", table):
        return None
    labels = [str(s) for s in table[f"{key}-labels"]]
    columns = [table[f"{key}-a{k}"] for k in range(len(puzzle.args))] if labels else []
    zeros = tuple((label, tuple(np.asarray(c[d]) for c in columns)) for d, label in enumerate(labels))
    return Found(zeros, _unflatten(table[f"{key}-groups"]))


def _arrays(result: Found, prefix: str = "") -> dict[str, Any]:
    arrays: dict[str, Any] = {f"{prefix}labels": np.array([label for label, _ in result.zeros], dtype=str)}
    n = len(result.zeros[0][1]) if result.zeros else 0
    for k in range(n):
        arrays[f"{prefix}a{k}"] = np.stack([values[k] for _, values in result.zeros])
    arrays[f"{prefix}groups"] = _flatten(result.groups)
    return arrays


def searched(puzzle: Puzzle, sampler: Sampler) -> dict[str, Any]:
    """A fresh search of `puzzle`, as the arrays of its rows in `TABLE`."""
    with _numerics.pinned():
        return _arrays(search(puzzle, sampler), f"{key(puzzle)}-")


def write_table(rows: dict[str, dict[str, Any]]) -> None:
    """Write `TABLE` from the rows of `searched`, by puzzle name (`python -m
    checker.authoring._zero_table`); a puzzle's file holds the rows of every variant of it."""
    TABLE.mkdir(exist_ok=True)
    for stale in set(TABLE.glob("*.npz")) - {TABLE / f"{name}.npz" for name in rows}:
        stale.unlink()
    for name, arrays in rows.items():
        np.savez_compressed(TABLE / f"{name}.npz", **arrays)
    shipped.cache_clear()


@functools.lru_cache(maxsize=256)
def _found(puzzle: Puzzle, key: str, sampler: Sampler) -> Found:
    shipped = _from_table(puzzle, key)
    if shipped is not None:
        return shipped
    from checker.engine._oracles import cache_dir  # imports JAX: only when there is a search to cache

    where = cache_dir()
    path = where / "zeros" / f"{puzzle.name}-{key}.npz" if where is not None else None
    if path is not None:
        loaded = _load(puzzle, path)
        if loaded is not None:
            return loaded
    with _numerics.pinned():
        result = search(puzzle, sampler)
    if path is not None:
        _store(path, result)
    return result


def _load(puzzle: Puzzle, path: Path) -> Found | None:
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as saved:
            labels = [str(s) for s in saved["labels"]]
            columns = [saved[f"a{k}"] for k in range(len(puzzle.args))] if labels else []
            flat = saved["groups"]
        zeros = tuple((label, tuple(np.asarray(c[d]) for c in columns)) for d, label in enumerate(labels))
        return Found(zeros, _unflatten(flat))
    except (OSError, ValueError, KeyError, IndexError):
        return None  # a damaged file is recomputed


def _store(path: Path, result: Found) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = _arrays(result)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(tmp, **arrays)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home only costs speed


def _flatten(groups: tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]) -> np.ndarray:
    # (argument, group number, member) rows: plain integers, loaded without pickle.
    rows = [(k, g, m) for k, found in groups for g, members in enumerate(found) for m in members]
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


def _unflatten(rows: np.ndarray) -> tuple[tuple[int, tuple[tuple[int, ...], ...]], ...]:
    out: dict[int, dict[int, list[int]]] = {}
    for k, g, m in rows.tolist():
        out.setdefault(k, {}).setdefault(g, []).append(m)
    return tuple((k, tuple(tuple(members) for _, members in sorted(found.items()))) for k, found in sorted(out.items()))
