"""The second oracle: TensorFlow, for the chapters whose references are TensorFlow functions.

The indexing chapter's puzzles come from a TensorFlow notebook; our TF re-implementations of its
functions live in `_tf_references`. With TensorFlow installed (the `tf` extra), their Jacobians
are computed live with `tf.GradientTape.jacobian` (backward-pass puzzles: `tape.gradient` with
`output_gradients=g`) and cached on disk like JAX's. Without it, the results recorded on the
default seed's draws (`python -m checker dev record-tf`, which states the TF version it ran) are
used; another seed then has the JAX oracle only. TensorFlow is imported only when a live result
is not in the cache: it takes seconds to import.

The recording keeps the inputs it was made on, and is used wherever today's draws equal them to
within a few ulps: numpy's vectorised `exp` and `log` differ in the last bit between versions and
processors, and a digest of the exact bytes would silently turn the second oracle off there.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import importlib.util
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from checker.engine import _catalog, _oracles
from checker.engine._catalog import Puzzle
from checker.engine._sampling import Draw
from checker.engine._tolerance import close, failing_draws

# Chapters whose puzzles have a TensorFlow reference.
CHAPTERS = _catalog.TF_CHAPTERS
RECORDING = _catalog._DATA / "tf_recorded.npz"
RECORDING_INFO = _catalog._DATA / "tf_recorded.json"
RECORD_COMMAND = "python -m checker dev record-tf"
# How far (in ulps of the larger) a draw may be from the recorded input and still use its result.
SAME_INPUT_ULPS = 16


@dataclass(frozen=True)
class TFResult:
    """TensorFlow's expected blocks for one puzzle's draws, or why there are none."""

    label: str  # "TensorFlow 2.21.0 GradientTape.jacobian (live)"
    blocks: list[_oracles.Blocks] | None
    note: str = ""  # why `blocks` is None


def covers(puzzle: Puzzle) -> bool:
    """Whether `puzzle` has a TensorFlow reference: a non-canonical variant has one unless the
    catalog says why not (`no_tf`)."""
    return puzzle.tf_judged


def installed_version() -> str | None:
    """TensorFlow's version when it can be imported here, read without importing it; None also
    when `JACPUZZLES_TF=off` asks for the recorded results instead."""
    if os.environ.get("JACPUZZLES_TF", "").lower() in ("0", "off", "no", "false"):
        return None
    if importlib.util.find_spec("tensorflow") is None:
        return None
    for dist in ("tensorflow-cpu", "tensorflow", "tf-nightly"):
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return "unknown"


def method(puzzle: Puzzle) -> str:
    """The TF call that gives the expected values."""
    return "tape.gradient(output_gradients=g)" if puzzle.is_vjp else "GradientTape.jacobian"


def digest(batch: tuple[Draw, ...]) -> str:
    """What the recorded results depend on: the draws, values and dtypes."""
    h = hashlib.sha256()
    for draw in batch:
        for value in draw.values:
            h.update(value.dtype.str.encode())
            h.update(np.ascontiguousarray(value).tobytes())
    return h.hexdigest()[:32]


def expected(puzzle: Puzzle, batch: tuple[Draw, ...]) -> TFResult:
    """TensorFlow's expected blocks for `batch`: live, cached, recorded, or a note saying why not."""
    version = installed_version()
    if version is not None:
        return TFResult(f"TensorFlow {version} {method(puzzle)} (live)", _live(puzzle, batch, version))
    info = recording_info()
    if info is None:
        return TFResult(
            "TensorFlow", None, f"TensorFlow is not installed and there is no recording; {install_advice()}"
        )
    label = f"TensorFlow {info['tensorflow']} {method(puzzle)} (recorded)"
    blocks = _recorded(puzzle, batch)
    if blocks is None:
        why = f"TensorFlow is not installed and the recording covers seed {info['seed']}'s draws only"
        return TFResult(label, None, f"{why}; {install_advice()}")
    return TFResult(label, blocks)


def install_advice() -> str:
    """How to get live TensorFlow, in the words that fit this install: the extra in a checkout
    installed with `-e`, the package itself (with the version range the kit supports) otherwise."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "solutions").is_dir():
        return 'run `python3 -m pip install -e ".[tf]"` in the repository for a live check'
    try:
        wanted = [
            r.split(";")[0].strip() for r in importlib.metadata.requires("jacpuzzles") or () if 'extra == "tf"' in r
        ]
    except importlib.metadata.PackageNotFoundError:
        wanted = []
    return f"`python3 -m pip install \"{wanted[0] if wanted else 'tensorflow-cpu'}\"` for a live check"


def recording_info() -> dict[str, Any] | None:
    """The recording's metadata (TF version, seed, number of draws per puzzle), or None."""
    try:
        info: dict[str, Any] = json.loads(RECORDING_INFO.read_text())
    except (OSError, ValueError):
        return None
    return info


def same_inputs(recorded: list[np.ndarray], batch: tuple[Draw, ...]) -> bool:
    """Whether `batch` is the recorded draws: integers equal, floats within `SAME_INPUT_ULPS`."""
    if not batch or len(recorded) != len(batch[0].values):
        return False
    for k, saved in enumerate(recorded):
        now = np.stack([np.asarray(draw.values[k]) for draw in batch])
        if now.shape != saved.shape or now.dtype != saved.dtype:
            return False
        if not np.issubdtype(now.dtype, np.floating):
            if not np.array_equal(now, saved):
                return False
            continue
        larger = np.maximum(np.abs(now), np.abs(saved))
        if not np.all(np.abs(now - saved) <= SAME_INPUT_ULPS * np.spacing(larger)):
            return False
    return True


def recorded_inputs(puzzle: Puzzle) -> list[np.ndarray] | None:
    """The inputs the recording of `puzzle` was made on, one array per argument with the draw
    index first; None when the recording has none for it."""
    try:
        with np.load(RECORDING, allow_pickle=False) as saved:
            count = sum(1 for key in saved.files if key.startswith(f"{puzzle.name}.x"))
            return [saved[f"{puzzle.name}.x{i}"] for i in range(count)] if count else None
    except (OSError, ValueError, KeyError):
        return None


def _recorded(puzzle: Puzzle, batch: tuple[Draw, ...]) -> list[_oracles.Blocks] | None:
    if puzzle.variant:  # the recording is of the canonical puzzles (a variant may share its draws)
        return None
    inputs = recorded_inputs(puzzle)
    if inputs is None or not same_inputs(inputs, batch):
        return None
    with np.load(RECORDING, allow_pickle=False) as saved:
        leaves = [saved[f"{puzzle.name}.b{k}"] for k in range(len(puzzle.jac_shapes()))]
    return _oracles._per_draw(leaves, len(batch))


def _live(puzzle: Puzzle, batch: tuple[Draw, ...], version: str) -> list[_oracles.Blocks]:
    where = _oracles.cache_dir()
    path = where / f"{puzzle.name}-tf-{_key(puzzle, batch, version)}.npz" if where else None
    cached = _oracles._load(path, len(batch)) if path is not None else None
    if cached is not None:
        return cached
    leaves = compute(puzzle, batch)
    if path is not None:
        _oracles._store(path, leaves)
    return _oracles._per_draw(leaves, len(batch))


@functools.cache
def _references_digest() -> bytes:
    # An edited TF reference gives other expected values: it is part of every cache key.
    return hashlib.sha256((Path(__file__).parent / "_tf_references.py").read_bytes()).digest()


def _key(puzzle: Puzzle, batch: tuple[Draw, ...], version: str) -> str:
    variant = f"{puzzle.variant!r}|" if puzzle.variant else ""
    return hashlib.sha256(
        f"{puzzle.name}|{variant}{version}|{digest(batch)}|".encode() + _references_digest()
    ).hexdigest()[:32]


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence TensorFlow's C++ start-up log lines (oneDNN, CPU features), which go straight to
    file descriptor 2 whatever TF_CPP_MIN_LOG_LEVEL says; Python exceptions still propagate."""
    try:
        saved = os.dup(2)
    except OSError:  # no file descriptor 2 (an embedded interpreter): nothing to silence
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


def compute(puzzle: Puzzle, batch: tuple[Draw, ...]) -> list[np.ndarray]:
    """TensorFlow's blocks for every draw, each leaf with the draw index first (imports TF)."""
    with _quiet_stderr():
        return _compute(puzzle, batch)


def _compute(puzzle: Puzzle, batch: tuple[Draw, ...]) -> list[np.ndarray]:
    from checker.engine import _tf_references

    wrt = [i for i, a in enumerate(puzzle.f_args) if a.differentiable]
    draws = [[a.static if a.static is not None else v for a, v in zip(puzzle.args, d.values)] for d in batch]
    if puzzle.is_vjp:
        upstreams = [d.values[-1] for d in batch]
        return _tf_references.vjps_of_draws(puzzle.name, [a[:-1] for a in draws], wrt, upstreams, puzzle.variant)
    return _tf_references.jacobians_of_draws(puzzle.name, draws, wrt, puzzle.variant)


def cross_check(puzzle: Puzzle, batch: tuple[Draw, ...], jax_blocks: list[_oracles.Blocks], tf: TFResult) -> None:
    """Raise `OracleDisagreement` when TensorFlow and JAX expect different values on any draw
    (each draw's own tolerance: TensorFlow keeps subnormals that XLA flushes, `Draw.floor`)."""
    if tf.blocks is None:
        return
    first = "jax.vjp" if puzzle.is_vjp else "jax.jacfwd"
    as_jax = [tuple(t.astype(j.dtype) for t, j in zip(tb, jb)) for tb, jb in zip(tf.blocks, jax_blocks)]
    for d in failing_draws(as_jax, jax_blocks, [x.atol for x in batch], [x.floor for x in batch]):
        draw = batch[d]
        for k, (a, b) in enumerate(zip(jax_blocks[d], tf.blocks[d])):
            if a.shape != b.shape or not close(b.astype(a.dtype), a, draw.atol, draw.floor).all():
                worst = float(np.max(np.abs(a - b))) if a.shape == b.shape else float("inf")
                raise _oracles.OracleDisagreement(puzzle.name, draw.label, k, worst, first, tf.label)


def stale(seed: int | None = None) -> list[str]:
    """The covered puzzles whose recording is missing or was made on other inputs than today's
    draws for the recording's seed (`dev check` fails on them)."""
    from checker.engine import _sampling

    info = recording_info()
    if info is None:
        return [p.name for p in _catalog.puzzles() if covers(p)]
    seed = info["seed"] if seed is None else seed
    return [
        p.name for p in _catalog.puzzles()
        if covers(p) and ((inputs := recorded_inputs(p)) is None or not same_inputs(inputs, _sampling.draws(p, seed)))
    ]


def record(root: Path, seed: int) -> tuple[Path, Path]:
    """Write the recording of every covered puzzle's draws for `seed` under `root`'s catalog data
    folder (the `dev record-tf` command): the inputs and TF's blocks; returns the two files written."""
    from checker.engine import _sampling

    version = installed_version()
    if version is None:
        raise RuntimeError(f"recording needs TensorFlow: {install_advice()}")
    arrays: dict[str, np.ndarray] = {}
    counts = {}
    for puzzle in _catalog.puzzles():
        if not covers(puzzle):
            continue
        batch = _sampling.draws(puzzle, seed)
        for i in range(len(puzzle.args)):
            arrays[f"{puzzle.name}.x{i}"] = np.stack([np.asarray(draw.values[i]) for draw in batch])
        for k, leaf in enumerate(compute(puzzle, batch)):
            arrays[f"{puzzle.name}.b{k}"] = leaf
        counts[puzzle.name] = len(batch)
    data = root / "checker" / "_data"
    npz, info = data / RECORDING.name, data / RECORDING_INFO.name
    np.savez_compressed(npz, **arrays)  # type: ignore[arg-type]
    info.write_text(
        json.dumps(
            {
                "tensorflow": version,
                "seed": seed,
                "made_by": RECORD_COMMAND,
                "what": "TensorFlow's expected Jacobians (vjps for backward-pass puzzles) on the checker's draws, with "
                        "the draws (x0, x1, ...: one array per argument)",
                "draws": counts,
            },
            indent=2,
        )
        + "\n"
    )
    return npz, info
