"""Autodiff refused at the machinery, not by name: every route into JAX's differentiation in
tests/autodiff_routes/ is `forbidden` in `check` (in-process) and in `grade` (the worker), with
the same message, naming what it reached; the answers under allowed/ use JAX's forward passes
only (`jnp.linalg.solve`, `custom_jvp`, `stop_gradient`) and pass in both.

Each route answers `cumsum`, and its first line says what the refusal must name,
`# reaches: <text>`. Each route computes the right Jacobian when nothing guards JAX (proved in a
process of its own), so a route that is not refused would pass: none of them is a strawman.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from checker import Kind, Status, check_files
from tests._grading import environ, run_grade
from tests.conftest import REPO, SOLUTIONS

ROUTES_DIR = REPO / "tests" / "autodiff_routes"
ROUTES = sorted(ROUTES_DIR.glob("*.py"))
ALLOWED = sorted((ROUTES_DIR / "allowed").glob("*.py"))
# Answers that switch the guards' own state off first, reached through
# `sys.modules` with a run-time name: refused in `check` (for rewriting the guards) and in `grade`.
TAMPER = sorted((ROUTES_DIR / "tamper").glob("*.py"))
# The first check of the docs' own example: `jax.jacfwd` in plain sight, refused before it runs.
PLAIN = textwrap.dedent('''\
    import jax
    import jax.numpy as np


    def jac(x):
        return jax.jacfwd(np.cumsum)(x) / 20
''')


def _reaches(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# reaches: "), f"{path.name}: the first line must say what is reached"
    return first.removeprefix("# reaches: ")


def _as_submitted(tmp: Path, name: str, source: Path | str) -> Path:
    """`source` laid out as a submission's cumsum answer: `<tmp>/<name>/autodiff/cumsum.py`."""
    path = tmp / name / "autodiff" / "cumsum.py"
    path.parent.mkdir(parents=True)
    if isinstance(source, Path):
        shutil.copy(source, path)
    else:
        path.write_text(source)
    return path


@pytest.fixture(scope="session")
def checked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every route, allowed answer and the plain jacfwd, checked in this process as `check` does,
    each laid out as a submission (so that messages naming the file name it as `grade` does)."""
    tmp = tmp_path_factory.mktemp("checked")
    paths = {p.stem: _as_submitted(tmp, p.stem, p) for p in [*ROUTES, *ALLOWED]}
    paths["plain_jacfwd"] = _as_submitted(tmp, "plain_jacfwd", PLAIN)
    verdicts = check_files([("cumsum", p) for p in paths.values()])
    return {"tmp": tmp, "verdicts": dict(zip(paths, verdicts))}


def test_there_is_a_route_for_each_way_into_the_machinery() -> None:
    assert {p.stem for p in ROUTES} >= {
        "special_jvp", "api_private_jvp", "reload_api", "gc_original", "gc_referents", "closure", "wrapped",
        "vjp_original", "jet", "trace_by_hand", "rule_table", "linear_transpose", "backward_pass",
        "solve_helper", "inside_solve", "compile_as_stdlib", "caught",
    }


@pytest.mark.parametrize("route", ROUTES, ids=lambda p: p.stem)
def test_check_refuses_each_route_naming_what_it_reached(checked: dict[str, Any], route: Path) -> None:
    verdict = checked["verdicts"][route.stem]
    assert verdict.status is Status.ERROR, verdict.message
    assert [d.kind for d in verdict.diagnoses] == [Kind.FORBIDDEN]
    assert _reaches(route) in verdict.message
    assert "not allowed" in verdict.message


@pytest.mark.parametrize("tampering", TAMPER, ids=lambda p: p.stem)
def test_check_refuses_answers_that_switch_the_guards_state_off(tmp_path: Path, tampering: Path) -> None:
    verdict = check_files([("cumsum", _as_submitted(tmp_path, tampering.stem, tampering))])[0]
    assert verdict.status is Status.ERROR and [d.kind for d in verdict.diagnoses] == [Kind.FORBIDDEN], verdict.message
    assert "rewrites the checker's own guards" in verdict.message, verdict.message
    # ... and the guards are back in place for the next answer
    again = check_files([("cumsum", _as_submitted(tmp_path / "again", "plain", ROUTES_DIR / "closure.py"))])[0]
    assert [d.kind for d in again.diagnoses] == [Kind.FORBIDDEN], again.message


@pytest.mark.parametrize("answer", ALLOWED, ids=lambda p: p.stem)
def test_check_lets_forward_passes_that_use_the_machinery_inside_jax_pass(
    checked: dict[str, Any], answer: Path
) -> None:
    verdict = checked["verdicts"][answer.stem]
    assert verdict.status is Status.PASS, verdict.message


def test_check_refuses_plain_jacfwd_before_running_it_as_the_grader_does(checked: dict[str, Any]) -> None:
    verdict = checked["verdicts"]["plain_jacfwd"]
    assert verdict.status is Status.ERROR and [d.kind for d in verdict.diagnoses] == [Kind.FORBIDDEN]
    assert verdict.message == (
        "autodiff/cumsum.py uses jax.jacfwd (line 6): answers must compute the Jacobian by hand; "
        "autodiff is not allowed. It was not run: remove that code and resubmit"
    )


def test_the_kit_still_differentiates_between_two_refused_answers(checked: dict[str, Any]) -> None:
    """The guards refuse only while an answer runs: the expected Jacobians of the next check are
    computed with the same machinery, and the reference answer passes."""
    verdict = check_files([("cumsum", SOLUTIONS / "autodiff" / "cumsum.py")])[0]
    assert verdict.status is Status.PASS, verdict.message
    import jax
    import jax.numpy as jnp

    assert jax.jacfwd(jnp.sin)(0.0) == 1.0  # the learner's own session, outside an answer


UNGUARDED = '''
import importlib.util, json, sys
from pathlib import Path
import jax.numpy as jnp, numpy as np
x = jnp.asarray(np.random.default_rng(0).normal(size=10), dtype=jnp.float32)
spec = importlib.util.spec_from_file_location("route", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps(bool(np.allclose(np.asarray(module.jac(x)), np.tri(10) / 20, atol=1e-6))))
'''


@pytest.mark.slow
def test_each_route_would_pass_if_nothing_refused_it(tmp_path: Path) -> None:
    """Without the guards, each route computes cumsum's Jacobian (one process each: a reload
    changes JAX for whatever runs after it)."""
    script = tmp_path / "unguarded.py"
    script.write_text(UNGUARDED)
    wrong = {}
    for route in [*ROUTES, *ALLOWED, *TAMPER]:
        done = subprocess.run(
            [sys.executable, str(script), str(route)],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        if done.returncode != 0 or done.stdout.split()[-1:] != ["true"]:
            wrong[route.stem] = done.stderr[-500:] or done.stdout[-500:]
    assert wrong == {}


@pytest.mark.slow
def test_grade_refuses_each_route_with_the_message_check_gives(checked: dict[str, Any], tmp_path: Path) -> None:
    """One class run: a submission per route, per allowed answer, the plain jacfwd, and the
    reference answer. The grader's verdict on each is the one `check` gave, word for word."""
    subs = tmp_path / "subs"
    for name in checked["verdicts"]:
        shutil.copytree(checked["tmp"] / name, subs / name)
    _as_submitted(subs, "reference", SOLUTIONS / "autodiff" / "cumsum.py")
    for answer in TAMPER:
        _as_submitted(subs, f"tamper_{answer.stem}", answer)
    assignment = tmp_path / "assignment.toml"
    assignment.write_text("[puzzles]\ncumsum = true\n")
    out = tmp_path / "out"
    done = run_grade(
        subs, out=out, assignment=assignment, timeout=20, memory_mb=2048, jobs=2, wait=600, env=environ(COLUMNS="200")
    )
    assert done.returncode == 0, done.stderr[-3000:]
    graded = {}
    for name in [*checked["verdicts"], "reference"]:
        doc = json.loads((out / f"{name}.json").read_text())
        assert doc["status"] == "graded", (name, doc.get("reason"))
        (result,) = doc["results"]
        graded[name] = (result["status"], [d["kind"] for d in result["diagnoses"]], result["message"])
    assert graded.pop("reference")[0] == "pass"
    for answer in TAMPER:  # the worker's gate reads none of the state they rewrite
        doc = json.loads((out / f"tamper_{answer.stem}.json").read_text())
        (result,) = doc["results"]
        assert result["status"] == "error" and [d["kind"] for d in result["diagnoses"]] == ["forbidden"], (
            answer.stem,
            result,
        )
        assert _reaches(answer) in result["message"], (answer.stem, result["message"])
    from_check = {
        name: (v.status.value, [d.kind.value for d in v.diagnoses], v.message)
        for name, v in checked["verdicts"].items()
    }
    for name, (status, _, _) in from_check.items():  # a pass's message names its draws, which differ
        if status == "pass":
            # Never refused. (`solve` passes once the worker can import what JAX's LAPACK lowering
            # imports lazily, `scipy`: that is the sandbox's part of the issue, not this rule's.)
            assert graded[name][1] != ["forbidden"] and "linear_transpose" not in graded[name][2], (name, graded[name])
            assert graded[name][0] == "pass" or "scipy" in graded[name][2], (name, graded[name])
            del graded[name]
    assert graded == {n: v for n, v in from_check.items() if v[0] != "pass"}


TAMPERED = """
import importlib, json, sys
import jax, jax.numpy as jnp
from checker.engine import _integrity, _runner
_runner.own_primitives()
_integrity.install_guards()  # as the grading worker does
# An answer that read the kit's source switches every guard of this module off:
kit = [m for name, m in list(sys.modules.items()) if name.endswith("_integrity")][0]
kit._STATE.always, kit._STATE.depth, kit.refusing = False, 0, (lambda: False)
kit._STATE.module_files.clear(), kit._STATE.gated_ids.clear(), kit._STATE.gated_classes.clear()
results = {}

def attempt(label, thunk):
    try:
        thunk()
        results[label] = "ran"
    except BaseException as exc:
        results[label] = type(exc).__name__

f = lambda x: jnp.sin(x)
stand_in = jax.jacfwd
original = [c.cell_contents for c in stand_in.__closure__ if getattr(c.cell_contents, "__name__", "") == "jacfwd"][0]
attempt("original_jacfwd", lambda: original(f)(jnp.ones(3)))
attempt("stand_in", lambda: stand_in(f)(jnp.ones(3)))
attempt("jvp_rule", lambda: kit._STATE.gated[
    [k for k, v in kit._STATE.gated.items() if "derivative rules" in v[1]][0]
][0](jnp.ones(3)))
attempt("gc", lambda: __import__("gc").get_objects())
attempt("reload", lambda: importlib.reload(sys.modules["jax._src.api"]))
attempt("forward_pass_still_works", lambda: jnp.linalg.solve(jnp.eye(3) * 2, jnp.ones(3)))
print(json.dumps(results))
"""


def test_in_the_worker_switching_the_guards_module_off_does_not_bring_autodiff_back(tmp_path: Path) -> None:
    """The worker's guards hold no original of the differentiating traces and rules, and its audit
    hook reads nothing this module's names lead to: rewriting them reaches nothing."""
    script = tmp_path / "tampered.py"
    script.write_text(TAMPERED)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=240, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.splitlines()[-1])
    assert results.pop("forward_pass_still_works") == "ran"
    assert "ran" not in results.values(), results
