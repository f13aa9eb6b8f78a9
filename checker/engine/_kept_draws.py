"""A puzzle's draws for a seed, kept on disk beside the expected Jacobians.

Making the draws of the whole catalog takes about a second (14544 draws, each structure tried
on random bases), a sixth of a warm check of every puzzle; reading them back, a third of that.
They are a function of the puzzle (every field), the seed, the kit's drawing code and zero
table, and numpy's random generator: the key digests all of these (the code by its files'
sizes and times), so that an edited catalog, a new kit or another numpy draws afresh. The
folder is the expected Jacobians' (`_oracles.cache_dir`); the grader hides it from the code it
runs, as it hides those. A file that cannot be read is drawn again and overwritten.
"""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from checker.engine import _catalog
from checker.engine._catalog import Puzzle
from checker.engine._draw import Draw

ENGINE = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=1)
def _code_digest() -> bytes:
    """The kit's engine sources and numpy's version: what makes draws from a puzzle and a seed.
    Each source by its name, size and modification time, as Python's own bytecode cache does:
    reading them all took 13 ms, as long as drawing one puzzle."""
    digest = hashlib.sha256(np.__version__.encode())
    for path in sorted(ENGINE.glob("*.py")):
        stat = path.stat()
        digest.update(f"|{path.name}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    return digest.digest()


def _key(puzzle: Puzzle, seed: int, zero_table: Path) -> str:
    digest = hashlib.sha256(_code_digest())
    digest.update(_catalog.catalog_bytes(puzzle.chapter))
    digest.update(f"|{seed}|{puzzle!r}".encode())  # every field of the puzzle and its arguments, the variant's
    try:
        digest.update(zero_table.read_bytes())
    except OSError:
        digest.update(b"no table")
    return digest.hexdigest()[:32]


def kept(puzzle: Puzzle, seed: int, zero_table: Path, draw: Callable[[], tuple[Draw, ...]]) -> tuple[Draw, ...]:
    """`draw()`, or what it returned for this puzzle and seed before, read from the cache."""
    from checker.engine._oracles import cache_dir

    where = cache_dir()
    if where is None:
        return draw()
    path = where / "draws" / f"{puzzle.name}-{_key(puzzle, seed, zero_table)}.npz"
    found = _load(path, puzzle)
    if found is not None:
        return found
    made = draw()
    _store(path, made)
    return made


def _load(path: Path, puzzle: Puzzle) -> tuple[Draw, ...] | None:
    if not path.is_file():
        return None
    try:
        with np.load(path, allow_pickle=False) as saved:
            labels = [str(s) for s in saved["labels"]]
            atols = saved["atols"]
            floors = saved["floors"]
            columns = [saved[f"a{k}"] for k in range(len(puzzle.args))]
        if len(atols) != len(labels) or len(floors) != len(labels) or any(len(c) != len(labels) for c in columns):
            return None
        return tuple(Draw(label, tuple(c[d] for c in columns), float(atols[d]), float(floors[d]))
                     for d, label in enumerate(labels))
    except (OSError, ValueError, KeyError):
        return None


def _store(path: Path, made: tuple[Draw, ...]) -> None:
    if not made or any(len({(np.shape(d.values[k]), np.asarray(d.values[k]).dtype) for d in made}) != 1
                       for k in range(len(made[0].values))):
        return  # kept only as one array per argument: every draw's value of one shape and dtype
    columns = {f"a{k}": np.stack([d.values[k] for d in made]) for k in range(len(made[0].values))}
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            arrays: dict[str, Any] = {"labels": np.array([d.label for d in made]),
                                      "atols": np.array([d.atol for d in made]),
                                      "floors": np.array([d.floor for d in made]), **columns}
            np.savez(out, **arrays)
        os.replace(temporary, path)
    except OSError:
        if temporary is not None:
            Path(temporary).unlink(missing_ok=True)  # a cache that cannot be written is only slower
