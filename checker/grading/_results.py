"""A worker's results, read back as hostile data.

A worker writes each puzzle's run as `<index>.npz` (its blocks) and `<index>.json` (the rest) in
its own folder, which the answer it ran could also write. Nothing there is believed but numbers:
files are never followed as links nor opened as FIFOs or devices, they are capped in size, arrays
are read without pickle after their headers are checked against their bytes, and a reported
problem keeps only its kind (never one that scores) and its text: the grader sets every status.
"""

from __future__ import annotations

import io
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from checker.engine._catalog import Puzzle, puzzle_named
from checker.engine._runner import Problem, Run
from checker.engine._verdict import Kind, Status

RECORD_CAP = 1024 * 1024  # bytes of a result record read back; a larger one is refused
RESULT_CAP = 64 * 1024 * 1024  # bytes of a result's arrays read back; larger ones are refused
OUTPUT_CAP = 4000  # characters of an answer's printed output kept (the worker caps it too)
TEXT_CAP = 2000  # characters of a problem's message or location kept


def read_untrusted(path: Path, cap: int) -> bytes | None:
    """At most `cap` bytes of a file the worker could have made or replaced, or None when it is
    missing, larger than `cap`, or not a regular file: a link, FIFO or device is never followed
    or opened (its folder is the worker's, but the folders above it are not)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > cap:
            return None
        data = os.read(fd, cap + 1) if cap > 0 else b""
        return data if len(data) <= cap else None
    except OSError:
        return None
    finally:
        os.close(fd)


def read_result(jobdir: Path, index: int, puzzle: str | Puzzle, draws: int, labels: Sequence[str] = ()) -> Run | None:
    """The worker's result for puzzle `index`, or None when it never finished it.

    Nothing in it is believed but numbers: the blocks must have the layout the judge expects (one
    tuple of number blocks per draw), read without pickle from files never followed as links and
    capped in size; a problem it reports keeps only its kind (never one that scores) and its text,
    and the grader sets its status. An answer can write over its own result, and must not crash
    the grader, nor score, by doing so.
    """
    raw = read_untrusted(jobdir / f"{index}.json", RECORD_CAP)
    if raw is None:
        if os.path.lexists(jobdir / f"{index}.json"):
            return Run(problem=Problem(Kind.EXCEPTION, "the result of this answer could not be read back (replaced by "
                                                       "something that is not a plain file, or too large); did it "
                                                       "write into the grader's files?"))
        return None
    try:
        record = json.loads(raw)
        if not isinstance(record, dict):
            raise TypeError("not a record")
        output = _text(record.get("output"), OUTPUT_CAP)
        problem = read_problem(record.get("problem"), labels)
        if problem is not None:
            return Run(problem=problem, output=output)
        data = read_untrusted(jobdir / f"{index}.npz", RESULT_CAP)
        if data is None:
            raise ValueError(f"its arrays are missing, not a plain file or over {RESULT_CAP // 1024 // 1024} MB")
        run = Run(_read_blocks(data, record), None, output)
        blocks = len((puzzle_named(puzzle) if isinstance(puzzle, str) else puzzle).jac_shapes())
        if len(run.answers) != draws or any(len(b) != blocks for b in run.answers):
            raise ValueError(f"{len(run.answers)} draws of blocks where {draws} draws of {blocks} were run")
        return run
    except Exception as exc:  # noqa: BLE001 - any way the worker's bytes break a reader (a JSON nested past the
        # recursion limit, an npz that is no zip...) is that answer's error, never the grader's failure
        return Run(problem=Problem(Kind.EXCEPTION, "the result of this answer could not be read back "
                                                   f"({type(exc).__name__}: {_text(str(exc), 300)}); did it write into "
                                                   "the grader's files?"))


def _read_blocks(data: bytes, record: dict[str, Any]) -> tuple[tuple[np.ndarray, ...], ...]:
    """The blocks per draw, from an `.npz`'s bytes, in the dtypes they came in."""
    dtypes = record["dtypes"]
    if not isinstance(dtypes, list) or not all(isinstance(d, list) for d in dtypes):
        raise TypeError("dtypes is not a list of lists")
    arrays = _npz_arrays(data)
    if not record.get("stacked"):
        return tuple(tuple(_restored(arrays[f"{k}.{j}"], str(name)) for j, name in enumerate(names))
                     for k, names in enumerate(dtypes))
    count = int(record["draws"])
    if count == 0:
        return ()
    columns = [_restored(arrays[str(j)], str(name)) for j, name in enumerate(dtypes[0])]
    if any(column.ndim == 0 or column.shape[0] != count for column in columns):
        raise ValueError(f"blocks stacked for {[c.shape[:1] for c in columns]} draws where {count} were run")
    return tuple(tuple(column[k] for column in columns) for k in range(count))


def _npz_arrays(data: bytes) -> dict[str, np.ndarray]:
    """The arrays of an uncompressed `.npz`, each checked to hold exactly the bytes its header
    declares before anything is allocated (a forged header cannot make the grader allocate)."""
    import zipfile

    arrays: dict[str, np.ndarray] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if (info.compress_type != zipfile.ZIP_STORED or info.file_size > len(data)
                    or not info.filename.endswith(".npy")):
                raise ValueError(f"{info.filename!r} is not a stored array")
            member = archive.read(info)
            stream = io.BytesIO(member)
            version = np.lib.format.read_magic(stream)
            header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            shape, fortran, dtype = header(stream)
            if dtype.hasobject or dtype.kind not in "biuf":
                raise ValueError(f"{info.filename!r} holds {dtype}: not numbers")
            count = int(np.prod(shape, dtype=np.int64)) if shape else 1
            body = member[stream.tell():]
            if count < 0 or count * dtype.itemsize != len(body):
                raise ValueError(f"{info.filename!r} declares {shape} but holds {len(body)} bytes")
            array = np.frombuffer(body, dtype=dtype, count=count).reshape(shape, order="F" if fortran else "C")
            arrays[info.filename[: -len(".npy")]] = array
    return arrays


def _restored(array: np.ndarray, name: str) -> np.ndarray:
    """A block in the dtype it was returned in (bfloat16, the float8s and int4 travel as float32);
    numbers only."""
    import jax.numpy as jnp

    dtype = jnp.dtype(name)
    number = dtype.kind in "biuf" or jnp.issubdtype(dtype, jnp.floating) or jnp.issubdtype(dtype, jnp.integer)
    if not number or array.dtype.kind not in "biuf":
        raise ValueError(f"a block of {array.dtype} returned as {name}: not numbers")
    return array if array.dtype == dtype else array.astype(dtype)


# What a worker may report about an answer it could not judge on values. The grader sets the
# status itself: `todo` for the untouched stub, `fail` for answers that returned the wrong kind
# of thing, `error` for everything else; never `pass`, and never the kit's own bug.
_TODO_KINDS = {Kind.UNTOUCHED, Kind.MISSING}
_FAIL_KINDS = {Kind.NOT_NUMBERS, Kind.STRUCTURE, Kind.SHAPE, Kind.GRADIENT, Kind.BROADCAST, Kind.EXTRA_AXIS}


def read_problem(raw: Any, labels: Sequence[str] = ()) -> Problem | None:
    """A `Problem` from the worker's report, its status decided here; its text is only text."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise TypeError("the problem is not a record")
    try:
        kind = Kind(raw.get("kind"))
    except ValueError:
        kind = Kind.EXCEPTION
    if kind == Kind.KIT_BUG:
        kind = Kind.EXCEPTION
    claimed = raw.get("status")
    if kind in _TODO_KINDS:
        status = Status.TODO
    elif kind in _FAIL_KINDS and claimed == Status.FAIL.value:
        status = Status.FAIL
    else:
        status = Status.ERROR
    draw = raw.get("draw")
    location = raw.get("location")
    return Problem(kind, _text(raw.get("message"), TEXT_CAP) or "the answer could not be run",
                   _text(location, TEXT_CAP) if isinstance(location, str) else None,
                   draw if isinstance(draw, str) and draw in labels else None, status)


def _text(value: Any, cap: int) -> str:
    """Text from the worker, capped: never anything but a string."""
    text = value if isinstance(value, str) else ""
    return text if len(text) <= cap else text[:cap] + " …"
