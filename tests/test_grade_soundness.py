"""The grader never passes a wrong answer that `check` fails: the red team's 82 answers, and
answers aimed at the grader's own way of running them (traced once for every draw, compiled
together with the submission's other answers), graded as a class and compared with `check`.

Slow: one grading run of about a hundred one-puzzle submissions.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from checker import Status, check_file
from checker.engine._catalog import puzzle_named
from checker.engine._stubs import relative_path
from tests.conftest import REPO, SOLUTIONS

# A class run is one fixture, charged to one test's time: room for a busy machine.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500)]

REDTEAM = REPO / "tests" / "redteam"
# Wrong only where entries lie a subnormal distance apart and the program runs unfused, as the
# grader's batch runs those draws (red team RT22's M1 and T1).
UNFUSED = (
    REPO / "tests" / "corpus" / "layers" / "max_pool" / "winner_by_sign_of_difference.py",
    REPO / "tests" / "corpus" / "autodiff" / "sort" / "rank_by_sign_of_difference.py",
)
HEADER_END = "# ---- your answer: everything below this line is yours to edit ----\n"

# Answers that behave differently when traced once than when called once per draw.
AIMED = {
    # Right on its first call only: traced once for all draws, it would look right everywhere.
    "first_call_only": ("cumsum", "fail", """
calls = []


def jac(x):
    calls.append(1)
    if len(calls) == 1:
        return np.tril(np.ones((10, 10))) / 20
    return np.triu(np.ones((10, 10))) / 20
"""),
    # Right on the first two calls (the two traces), wrong on every call after. Not a function:
    # `check` passes it too (docs/checker.md), and only agreement is asked of the grader. (It
    # cannot help a student: an answer right on its first calls already knows the Jacobian.)
    "first_two_calls": ("cumsum", "agree", """
calls = []


def jac(x):
    calls.append(1)
    if len(calls) <= 2:
        return np.tril(np.ones((10, 10))) / 20
    return np.triu(np.ones((10, 10))) / 20
"""),
    # A host callback that sees each draw's values: wrong on draws whose first entry is negative.
    "callback_on_values": ("relu", "fail", """
import numpy


def jac(x):
    def host(v):
        v = numpy.asarray(v)
        return numpy.diag((v > 0) | (v[0] < 0)).astype(v.dtype)

    return jax.pure_callback(host, jax.ShapeDtypeStruct((len(x), len(x)), x.dtype), x)
"""),
    # Python control flow on values: cannot be traced, so it runs once per draw. It differs from
    # the reference only at exactly 0, which relu's domain leaves out (the kink): agreement only.
    "branch_on_values": ("relu", "agree", """
def jac(x):
    if float(x.min()) == 0.0:
        return np.eye(len(x))
    return np.diag(x > 0).astype(x.dtype)
"""),
    # Tries numpy first: on a traced value numpy raises, the answer catches it and takes the
    # right way; called plainly it takes the wrong one. Traces during which a traced value was
    # refused are not trusted.
    "numpy_first": ("cos", "fail", """
import numpy as onp
def jac(x):
    try:
        return np.asarray(onp.sin(onp.asarray(x)))[:, None]   # numpy path: wrong sign, runs only on concrete arrays
    except Exception:
        return -np.sin(x)[:, None]
"""),
    # A callback (the same function in both traces) that reads state the body changes: right
    # while the body has run once only.
    "callback_reads_state": ("cos", "fail", """
import numpy as onp
_calls = [0]
def _cb(x):
    s = -onp.sin(x)[:, None]
    return s if _calls[0] == 1 else 2 * s       # right only while the body has run exactly once
def jac(x):
    _calls[0] += 1
    return jax.pure_callback(_cb, jax.ShapeDtypeStruct((1, 1), x.dtype), x)
"""),
    # A primitive of the answer's own: compiled and batched right, called plainly wrong. Only
    # JAX's own primitives are trusted to compute the same all three ways.
    "own_primitive": ("cos", "fail", """
from jax.extend.core import Primitive
from jax.interpreters import batching, mlir

_p = Primitive("dcos")
_p.def_impl(lambda x: np.sin(x)[:, None])                       # plain calls: wrong sign
_p.def_abstract_eval(lambda x: jax.core.ShapedArray((x.shape[0], 1), x.dtype))
mlir.register_lowering(_p, mlir.lower_fun(lambda x: -np.sin(x)[:, None], multiple_results=False))  # jit: right
batching.primitive_batchers[_p] = lambda args, dims: (-np.sin(args[0])[..., None], dims[0])       # vmap: right

def jac(x):
    return _p.bind(x)
"""),
    # A batching rule of its own (`custom_vmap`): right under `vmap` only, which is how the
    # grader runs traced answers.
    "own_batching_rule": ("cos", "fail", """
import jax._src.custom_batching as _cb
from jax.tree_util import tree_structure

def _wrong(x):                      # what jit and plain calls compute: wrong sign
    return np.sin(x)[:, None]

def _right_rule(axis_size, in_batched, x):   # what vmap computes: right
    return -np.sin(x)[..., None], True

_call = jax.make_jaxpr(_wrong)(np.zeros(1, np.float32))
_rule = _cb.ClosedRule(_right_rule, None)    # one object, the same in every trace
_in_tree = tree_structure(((), (0,)))
_out_tree = tree_structure(0)

def jac(x):
    (out,) = _cb.custom_vmap_p.bind(x, call=_call, rule=_rule, in_tree=_in_tree, out_tree=_out_tree)
    return out
"""),
    # Right, through a host callback (workers need JAX's lazily imported modules for it).
    "right_callback": ("cos", "pass", """
import numpy as onp
def _cb(x):
    return -onp.sin(x)[:, None]
def jac(x):
    return jax.pure_callback(_cb, jax.ShapeDtypeStruct((1, 1), x.dtype), x)
"""),
    # Right, and written the same way as the reference: must pass through the batched path too.
    "right_relu": ("relu", "pass", """
def jac(x):
    return np.diag(x > 0).astype(x.dtype)
"""),
}


def _header(name: str) -> str:
    text = (SOLUTIONS / relative_path(puzzle_named(name))).read_text()
    return text[: text.index(HEADER_END) + len(HEADER_END)]


def _class(root: Path) -> dict[str, tuple[str, str, Path]]:
    """One submission per answer: submission -> (puzzle, expected status, the answer file)."""
    subs = root / "submissions"
    expected: dict[str, tuple[str, str, Path]] = {}
    for path in [*sorted(REDTEAM.glob("*/*.py")), *UNFUSED]:
        expect = path.read_text().splitlines()[0].split()[2]
        name = f"{path.parent.name}--{path.stem}"
        target = subs / name / relative_path(puzzle_named(path.parent.name))
        target.parent.mkdir(parents=True)
        target.write_text(path.read_text())
        expected[name] = (path.parent.name, expect, target)
    for name, (puzzle, expect, answer) in AIMED.items():
        target = subs / name / relative_path(puzzle_named(puzzle))
        target.parent.mkdir(parents=True)
        target.write_text(_header(puzzle) + answer)
        expected[name] = (puzzle, expect, target)
    return expected


def test_the_grader_agrees_with_check_and_passes_no_wrong_answer(tmp_path: Path) -> None:
    expected = _class(tmp_path)
    out = tmp_path / "out"
    argv = [
        sys.executable,
        "-m",
        "checker",
        "grade",
        str(tmp_path / "submissions"),
        "--out",
        str(out),
        "--jobs",
        "2",
        "--timeout",
        "10",
    ]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=REPO, stdin=subprocess.DEVNULL, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    wrong_passes, right_fails, disagreements = [], [], []
    for name, (puzzle, expect, path) in expected.items():
        doc = json.loads((out / f"{name}.json").read_text())
        graded = next(r for r in doc["results"] if r["puzzle"] == puzzle)["status"]
        if expect == "fail" and graded == "pass":
            wrong_passes.append(name)
        if expect == "pass" and graded != "pass":
            right_fails.append(f"{name}: {graded}")
        checked = check_file(puzzle, path).status
        if (checked is Status.PASS) != (graded == "pass"):
            disagreements.append(f"{name}: check {checked.value}, grade {graded}")
    assert not wrong_passes, f"wrong answers graded as passing: {wrong_passes}"
    assert not right_fails, f"right answers not passing: {right_fails}"
    assert not disagreements, "\n".join(disagreements)
