"""Expected Jacobians: `jax.jacfwd`, cross-checked against `jax.jacrev`, on every draw at once.

Both are computed by one jitted, vmapped function per puzzle (one compilation instead of dozens of
eager dispatches). Results are cached on disk, keyed by everything they depend on, so checking the
same puzzle again does not compile again. The cache holds plain `.npz` arrays, loaded without pickle.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

from checker import _catalog
from checker._catalog import Puzzle
from checker._tolerance import close
from checker._sampling import Draw, stacked

# One entry per Jacobian block, output-major (see `Puzzle.jac_shapes`).
Blocks = tuple[np.ndarray, ...]


class OracleDisagreement(Exception):
    """jacfwd and jacrev disagree: a bug in the kit (or in JAX), never in the learner's answer."""

    def __init__(self, puzzle: str, draw: str, block: int, worst: float) -> None:
        super().__init__(
            f"{puzzle}: jax.jacfwd and jax.jacrev disagree on the {draw} (block {block}, "
            f"largest difference {worst:.3g}). This is a bug in jacpuzzles, not in your answer: "
            "please report it with this message."
        )
        self.puzzle, self.draw, self.block, self.worst = puzzle, draw, block, worst


def cache_dir() -> Path | None:
    """Where expected Jacobians are cached, or None when caching is off (`JACPUZZLES_CACHE=off`)."""
    setting = os.environ.get("JACPUZZLES_CACHE", "")
    if setting.lower() in ("0", "off", "no", "false"):
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "jacpuzzles"


def _key(puzzle: Puzzle, batch: tuple[Draw, ...]) -> str:
    import jax

    digest = hashlib.sha256()
    digest.update((_catalog._DATA / f"{puzzle.chapter}.toml").read_bytes())
    digest.update(f"{puzzle.name}|{jax.__version__}|{np.__version__}".encode())
    for draw in batch:
        for value in draw.values:
            digest.update(value.dtype.str.encode())
            digest.update(value.tobytes())
    return digest.hexdigest()[:32]


def expected(puzzle: Puzzle, batch: tuple[Draw, ...]) -> list[Blocks]:
    """The expected Jacobian blocks for each draw, in draw order.

    Raises `OracleDisagreement` when forward and reverse mode disagree on any draw.
    """
    where = cache_dir()
    path = where / f"{puzzle.name}-{_key(puzzle, batch)}.npz" if where else None
    if path is not None and path.is_file():
        try:
            with np.load(path, allow_pickle=False) as saved:
                leaves = [saved[f"b{k}"] for k in range(len(saved.files))]
            return _per_draw(leaves, len(batch))
        except (OSError, ValueError, KeyError):
            pass  # a damaged cache file is recomputed and overwritten
    fwd, rev = _compute(puzzle, batch)
    for k, (a, b) in enumerate(zip(fwd, rev)):
        for d, draw in enumerate(batch):
            if not close(a[d], b[d]).all():
                raise OracleDisagreement(puzzle.name, draw.label, k, float(np.max(np.abs(a[d] - b[d]))))
    if path is not None:
        _store(path, fwd)
    return _per_draw(fwd, len(batch))


def _per_draw(leaves: list[np.ndarray], n: int) -> list[Blocks]:
    return [tuple(leaf[d] for leaf in leaves) for d in range(n)]


def _store(path: Path, leaves: list[np.ndarray]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(tmp, **{f"b{k}": leaf for k, leaf in enumerate(leaves)})
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home only costs speed


def _compute(puzzle: Puzzle, batch: tuple[Draw, ...]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    import jax

    f, argnums = puzzle.f, puzzle.argnums

    def both(*args):  # type: ignore[no-untyped-def]
        return jax.jacfwd(f, argnums)(*args), jax.jacrev(f, argnums)(*args)

    fwd, rev = jax.jit(jax.vmap(both))(*stacked(batch))
    return (
        [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(fwd)],
        [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(rev)],
    )
