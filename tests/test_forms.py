"""The per-entry answer form of the original notebook, `fb_<name>(x[, y]) -> (f, dx[, dy])`."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from checker import Kind, Status, check_answer, check_file
from tests.conftest import write_answer
from tests.test_cli import jacpuzzles

RIGHT = {
    # dx(i, o) on index arrays: evaluated for every entry at once.
    "cumsum": """
import jax.numpy as np

def fb_cumsum(x):
    out = np.cumsum(x, 0)
    f = lambda o: out[o] / 20
    dx = lambda i, o: (i <= o) / 20
    return f, dx
""",
    # Python branches on the indices: called entry by entry.
    "mul": """
def fb_mul(x, y):
    f = lambda o: x[o] * y[o]
    def dx(i, o):
        return y[o] if i == o else 0
    def dy(j, o):
        return x[o] if j == o else 0
    return f, dx, dy
""",
    # A matrix in, a matrix out: dx(i, j, o, p), input indices first.
    "transpose": """
def fb_transpose(x):
    f = lambda o, p: x[p, o]
    dx = lambda i, j, o, p: (i == p) & (j == o)
    return f, dx
""",
    # A matrix and a vector in: dy(j, o, p).
    "broadcast": """
def fb_broadcast(x, y):
    f = lambda o, p: x[o, p] * y[p]
    dx = lambda i, j, o, p: (i == o) * (j == p) * y[p]
    dy = lambda j, o, p: (j == p) * x[o, p]
    return f, dx, dy
""",
    # A branch on the input's values: runs without jit, still one call of fb per draw.
    "relu": """
def fb_relu(x):
    def dx(i, o):
        return 1.0 if i == o and x[o] > 0 else 0.0
    return (lambda o: max(x[o], 0)), dx
""",
}

WRONG = {
    # Output index first, as `lambda o, i` reads: the transposed Jacobian.
    "cumsum": ("""
def fb_cumsum(x):
    return (lambda o: 0), (lambda o, i: (i <= o) / 20)
""", Kind.TRANSPOSED),
    "mul": ("""
def fb_mul(x, y):
    return (lambda o: 0), (lambda i, o: (i == o) * y[o]), (lambda j, o: (j == o) * y[o])
""", Kind.CELLS),
    "relu": ("""
def fb_relu(x):
    return (lambda o: 0), (lambda i, o: 1.0 if i == o and x[o] > 1e-6 else 0.0)
""", Kind.CELLS),
}


@pytest.mark.parametrize("name", sorted(RIGHT))
def test_a_right_per_entry_answer_passes(tmp_path: Path, name: str) -> None:
    verdict = check_file(name, write_answer(tmp_path, name, RIGHT[name]))
    assert verdict.status is Status.PASS, verdict.message


@pytest.mark.parametrize("name", sorted(WRONG))
def test_a_wrong_per_entry_answer_fails_with_its_diagnosis(tmp_path: Path, name: str) -> None:
    body, kind = WRONG[name]
    verdict = check_file(name, write_answer(tmp_path, name, body))
    assert verdict.status is Status.FAIL, verdict.message
    assert kind in [d.kind for d in verdict.diagnoses]


def test_the_full_jacobian_built_from_dx_is_judged_output_axes_first(tmp_path: Path) -> None:
    # mean_reduce: f(X)_o = mean over rows of X[:, o], a (4,) output of a (4, 4) input.
    body = """
def fb_mean_reduce(x):
    return (lambda o: 0), (lambda i, j, o: (j == o) / 4)
"""
    assert check_file("mean_reduce", write_answer(tmp_path, "mean_reduce", body)).passed


def test_a_wrong_number_of_indices_names_the_call_form(tmp_path: Path) -> None:
    body = """
def fb_view(x):
    return (lambda o, p: x[o, p]), (lambda i, o: i == o)
"""
    verdict = check_file("view", write_answer(tmp_path, "view", body))
    assert verdict.status is Status.ERROR
    assert verdict.diagnoses[0].kind is Kind.SIGNATURE
    assert (
        "it is called as dx(i, j, o, p), 2 indices of x (4, 4) and then 2 indices of f's output (4, 4)"
        in verdict.message
    )


def test_an_array_instead_of_a_number_names_the_entry(tmp_path: Path) -> None:
    body = """
import jax.numpy as np

def fb_neg(x):
    return (lambda o: -x[o]), (lambda i, o: -np.eye(10)[o])
"""
    verdict = check_file("neg", write_answer(tmp_path, "neg", body))
    assert verdict.status is Status.ERROR
    assert verdict.diagnoses[0].kind is Kind.NOT_NUMBERS
    assert "dx returned an array of shape (10,) for dx(0, 0), that is d f[0] / d x[0]" in verdict.message
    assert "a single number" in verdict.message


def test_an_exception_in_dx_names_the_entry_and_the_line(tmp_path: Path) -> None:
    body = """
def fb_neg(x):
    def dx(i, o):
        if i == o:
            return -1.0
        return 1 / (i - o - 3) * 0  # i - o == 3 divides by zero
    return (lambda o: -x[o]), dx
"""
    path = write_answer(tmp_path, "neg", body)
    verdict = check_file("neg", path)
    assert verdict.status is Status.ERROR
    assert verdict.diagnoses[0].kind is Kind.EXCEPTION
    assert "dx(3, 0), that is d f[0] / d x[3] raised ZeroDivisionError" in verdict.message
    assert verdict.location is not None and verdict.location.startswith("neg.py:6:")


def test_fb_must_return_f_and_one_function_per_argument(tmp_path: Path) -> None:
    body = """
def fb_mul(x, y):
    return (lambda o: x[o] * y[o]), (lambda i, o: (i == o) * y[o])
"""
    verdict = check_file("mul", write_answer(tmp_path, "mul", body))
    assert verdict.status is Status.ERROR
    assert (
        "fb_mul returns (f, dx, dy): f, then one derivative function per argument of f (x, y); got a tuple of 2 entries"
        in verdict.message
    )


def test_both_forms_in_one_file_is_reported_as_ambiguous(tmp_path: Path) -> None:
    body = RIGHT["cumsum"] + "\n\ndef jac(x):\n    return np.tri(10) / 20\n"
    verdict = check_file("cumsum", write_answer(tmp_path, "cumsum", body))
    assert verdict.status is Status.ERROR
    assert "defines both `jac` and `fb_cumsum`" in verdict.message


def test_the_stubs_own_jac_left_in_place_gives_way_to_fb(tmp_path: Path) -> None:
    from checker.engine._catalog import puzzle_named
    from checker.engine._stubs import stub

    path = write_answer(tmp_path, "cumsum", stub(puzzle_named("cumsum")) + RIGHT["cumsum"])
    assert check_file("cumsum", path).passed


def test_not_applicable_outside_the_autodiff_chapter(tmp_path: Path) -> None:
    body = """
def fb_naive_lookup(arr, index):
    return (lambda o: 0), (lambda i, o: 0)
"""
    verdict = check_file("naive_lookup", write_answer(tmp_path, "naive_lookup", body))
    assert verdict.status is Status.ERROR
    assert (
        "accepted only for the autodiff chapter's puzzles; naive_lookup is in the indexing chapter" in verdict.message
    )


def test_dx_raising_not_implemented_is_todo(tmp_path: Path) -> None:
    body = """
def fb_neg(x):
    def dx(i, o):
        raise NotImplementedError
    return (lambda o: -x[o]), dx
"""
    assert check_file("neg", write_answer(tmp_path, "neg", body)).status is Status.TODO


def test_check_answer_takes_an_fb_function_by_its_name() -> None:
    def fb_neg(x):  # type: ignore[no-untyped-def]
        return (lambda o: -x[o]), (lambda i, o: -1.0 * (i == o))

    assert check_answer("neg", fb_neg).passed


def test_per_entry_answers_on_the_largest_jacobian_stay_fast(tmp_path: Path) -> None:
    # index: 15 x 25 = 375 entries per draw; a branch on the index makes it one call per entry.
    body = """
def fb_index(x):
    def dx(i, o):
        return 1.0 if i == o + 10 else 0.0
    return (lambda o: x[o + 10]), dx
"""
    path = write_answer(tmp_path, "index", body)
    check_file("index", path)  # the expected Jacobians, compiled once
    start = time.perf_counter()
    assert check_file("index", path).passed
    assert time.perf_counter() - start < 10


def test_the_command_line_checks_per_entry_answers(tmp_path: Path) -> None:
    folder = tmp_path / "answers"
    folder.mkdir()
    write_answer(folder, "cumsum", RIGHT["cumsum"])
    write_answer(folder, "mul", WRONG["mul"][0])
    result = jacpuzzles("check", "--dir", str(folder), "cumsum", "mul")
    assert result.returncode == 1, result.stderr
    assert "✘ mul: FAIL" in result.stdout
    assert "cumsum │ ✔ pass" in result.stdout
