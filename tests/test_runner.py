"""Running learner files: every way a file can go wrong gets a status and a message, never a crash."""

from __future__ import annotations

from checker import Kind, Status, check_file

CUMSUM = """
import jax.numpy as np
Is = np.arange(10)
Os = np.arange(10)[:, None]
"""


def test_only_jac_is_taken_from_the_file_not_f(answer) -> None:  # type: ignore[no-untyped-def]
    body = CUMSUM + "def cumsum(x):\n    return x * 0\n\ndef jac(x):\n    return (Is <= Os) / 20\n"
    assert check_file("cumsum", answer("cumsum", body)).status is Status.PASS


def test_an_exception_names_the_line_of_the_learners_file(answer) -> None:  # type: ignore[no-untyped-def]
    body = CUMSUM + "def jac(x):\n    rows = Os + 1\n    return x.reshape(3, 3) / 20\n"
    path = answer("cumsum", body)
    verdict = check_file("cumsum", path)
    assert verdict.status is Status.ERROR
    assert verdict.kinds() == (Kind.EXCEPTION,)
    assert verdict.message.startswith("jac raised ") and "on the random draw 1" in verdict.message
    assert verdict.location == "cumsum.py:7: return x.reshape(3, 3) / 20"


def test_a_syntax_error_is_an_error_with_its_line(answer) -> None:  # type: ignore[no-untyped-def]
    verdict = check_file("cumsum", answer("cumsum", "def jac(x)\n    return 1\n"))
    assert verdict.status is Status.ERROR
    assert verdict.message.startswith("cumsum.py does not import: SyntaxError")
    assert verdict.location is not None and verdict.location.startswith("cumsum.py:1:")


def test_a_module_that_raises_on_import_is_an_error(answer) -> None:  # type: ignore[no-untyped-def]
    verdict = check_file("cumsum", answer("cumsum", "import numpy\nraise RuntimeError('boom')\n"))
    assert verdict.status is Status.ERROR
    assert verdict.message == "cumsum.py does not import: RuntimeError: boom"
    assert verdict.location == "cumsum.py:2: raise RuntimeError('boom')"


def test_no_jac_is_an_error_that_shows_the_signature(answer) -> None:  # type: ignore[no-untyped-def]
    verdict = check_file("neg", answer("neg", "def jacobian(x):\n    return x\n"))
    assert verdict.status is Status.ERROR
    assert verdict.kinds() == (Kind.MISSING,)
    assert 'def jac(x: Shaped[Array, "10"]) -> Shaped[Array, "10 10"]:' in verdict.message


def test_wrong_number_of_arguments_is_an_error(answer) -> None:  # type: ignore[no-untyped-def]
    verdict = check_file("mul", answer("mul", "def jac(x):\n    return x\n"))
    assert verdict.status is Status.ERROR
    assert verdict.kinds() == (Kind.SIGNATURE,)
    assert verdict.message == "jac(x) cannot be called like mul(x, y): jac takes the same arguments as f"


def test_one_array_for_two_arguments_is_a_structure_error(answer) -> None:  # type: ignore[no-untyped-def]
    body = "import numpy as np\ndef jac(x, y):\n    return np.eye(10) / 2\n"
    verdict = check_file("emean", answer("emean", body))
    assert verdict.status is Status.ERROR
    assert verdict.kinds() == (Kind.STRUCTURE,)
    assert "f has 2 floating arguments (x, y), so jac returns a tuple of 2 Jacobians" in verdict.message


def test_a_tuple_for_one_argument_is_a_structure_error(answer) -> None:  # type: ignore[no-untyped-def]
    body = "import numpy as np\ndef jac(x):\n    return (-np.eye(10), -np.eye(10))\n"
    verdict = check_file("neg", answer("neg", body))
    assert verdict.status is Status.ERROR
    assert "f has one floating argument (x): return a single array" in verdict.message


def test_nested_lists_bools_and_ints_are_accepted(answer) -> None:  # type: ignore[no-untyped-def]
    lists = "def jac(x):\n    return [[(i <= o) / 20 for i in range(10)] for o in range(10)]\n"
    assert check_file("cumsum", answer("cumsum", lists)).status is Status.PASS
    bools = "import numpy as np\ndef jac(x):\n    return np.eye(10, dtype=bool) & (np.asarray(x) > 0)\n"
    assert check_file("relu", answer("relu", bools)).status is Status.PASS
    ints = "import numpy as np\ndef jac(x):\n    return -np.eye(10, dtype=np.int32)\n"
    assert check_file("neg", answer("neg", ints)).status is Status.PASS


def test_none_strings_and_complex_are_not_numbers(answer) -> None:  # type: ignore[no-untyped-def]
    none = check_file("neg", answer("neg", "def jac(x):\n    (x)\n"))
    assert (none.status, none.kinds()) == (Status.ERROR, (Kind.NOT_NUMBERS,))
    assert none.message == "jac returned None: did you forget `return`?"
    text = check_file("neg", answer("neg", "def jac(x):\n    return 'minus one'\n"))
    assert (text.status, text.kinds()) == (Status.ERROR, (Kind.NOT_NUMBERS,))
    complex_ = check_file("neg", answer("neg", "import numpy as np\ndef jac(x):\n    return -np.eye(10) + 0j\n"))
    assert (complex_.status, complex_.kinds()) == (Status.FAIL, (Kind.NOT_NUMBERS,))


def test_printed_output_is_captured_and_capped(answer) -> None:  # type: ignore[no-untyped-def]
    body = (
        CUMSUM
        + "print('loaded')\ndef jac(x):\n    print('x is', x.shape)\n    print('-' * 10000)\n    return (Is <= Os) / "
          "20\n"
    )
    verdict = check_file("cumsum", answer("cumsum", body))
    assert verdict.status is Status.PASS
    assert verdict.output.startswith("loaded\nx is (10,)")
    assert len(verdict.output) <= 4000


def test_a_hanging_jac_times_out(answer) -> None:  # type: ignore[no-untyped-def]
    verdict = check_file("neg", answer("neg", "def jac(x):\n    while True:\n        pass\n"), timeout=0.5)
    assert verdict.status is Status.ERROR
    assert verdict.kinds() == (Kind.TIMEOUT,)
    assert verdict.message == "jac did not return within 0.5 s on the random draw 1"


def test_a_missing_file_is_todo(tmp_path) -> None:  # type: ignore[no-untyped-def]
    verdict = check_file("neg", tmp_path / "neg.py")
    assert (verdict.status, verdict.kinds()) == (Status.TODO, (Kind.MISSING,))


def test_original_notebook_style_answer_checks_unchanged(answer) -> None:  # type: ignore[no-untyped-def]
    # As written in the original notebook: jax.numpy imported as np, jaxtyping annotations, f alongside.
    body = '''
import jax
import jax.numpy as np
from jaxtyping import Shaped, Array

def index(x: Shaped[Array, "25"]) -> Shaped[Array, "15"]:
    return x[10:]

def jac(x: Shaped[Array, "25"]) -> Shaped[Array, "15 25"]:
    Is = np.arange(25)
    Os = np.arange(15)[:, None]
    return 1 * (Is == Os + 10)
'''
    assert check_file("index", answer("index", body)).status is Status.PASS


def test_an_answer_right_on_its_first_call_only_is_judged_on_every_call(answer) -> None:  # type: ignore[no-untyped-def]
    # Under jit the Python body runs once and its result is replayed; the runner must notice.
    body = (
        CUMSUM
        + "calls = []\ndef jac(x):\n    calls.append(1)\n    return (Is <= Os) / (20 if len(calls) == 1 else 10)\n"
    )
    assert check_file("cumsum", answer("cumsum", body)).status is Status.FAIL


def test_a_callback_right_on_its_first_call_only_is_judged_on_every_call(answer) -> None:  # type: ignore[no-untyped-def]
    # Printed, the two traces are the same (a function prints as its name); the callback's
    # closure differs, and the second call's is wrong.
    body = """
import jax
import numpy

calls = []

def jac(x):
    calls.append(1)
    right = len(calls) == 1
    return jax.pure_callback(
        lambda v: (-numpy.sin(v) if right else numpy.cos(v))[:, None].astype(v.dtype),
        jax.ShapeDtypeStruct((1, 1), x.dtype),
        x,
    )
"""
    assert check_file("cos", answer("cos", body)).status is Status.FAIL


def test_two_traces_are_the_same_program_only_when_they_compute_the_same() -> None:
    # `_program` stands in for printing the traced program (check's test for answers that keep
    # state): every kind of difference a second call could make must show.
    import jax
    import jax.numpy as np
    import numpy

    from checker.engine._runner import _primitives, _program, _same_trace, _trace, traceable

    x = numpy.ones((3, 4), numpy.float32)

    def program(fn):  # type: ignore[no-untyped-def]
        return _program(jax.make_jaxpr(fn)(x).jaxpr)

    same = program(lambda a: np.where(a > 0, a.sum(0), 0.0) @ a.T * 2.0)
    assert same == program(lambda a: np.where(a > 0, a.sum(0), 0.0) @ a.T * 2.0)
    variants = [
        lambda a: np.where(a > 0, a.sum(0), 0.0) @ a.T * 3.0,  # a literal
        lambda a: np.where(a > 0, a.sum(1, keepdims=True), 0.0) @ a.T * 2.0,  # a parameter
        lambda a: np.where(a < 0, a.sum(0), 0.0) @ a.T * 2.0,  # a primitive
        lambda a: np.where(a > 0, 0.0, a.sum(0)) @ a.T * 2.0,  # operands swapped
        lambda a: (np.where(a > 0, a.sum(0), 0.0) @ a.T * 2.0).astype(np.float16),  # a type
        lambda a: (
            np.where(a > 0, a.sum(0), 0.0) @ a.T * np.asarray(numpy.full((3, 3), 2.0, numpy.float32))
        ),  # a constant
    ]
    assert all(program(v) != same for v in variants)
    shifted = numpy.arange(12.0, dtype=numpy.float32).reshape(3, 4)
    before = _trace(lambda a: a + shifted, (x,))
    assert before is not None and _same_trace(before, _trace(lambda a: a + shifted.copy(), (x,)))
    assert not _same_trace(before, _trace(lambda a: a + shifted[::-1], (x,)))  # constants compared by value
    printing = jax.make_jaxpr(
        lambda a: jax.pure_callback(
            lambda v: v, jax.ShapeDtypeStruct((3, 4), numpy.float32), jax.jit(lambda b: b * 2)(a)
        )
    )(x).jaxpr
    names = {q.name for q in _primitives(printing)}
    assert "pure_callback" in names and "mul" in names  # nested programs too
    assert not traceable(printing)  # a callback runs plainly: it may read state the calls change
    assert traceable(jax.make_jaxpr(lambda a: jax.jit(lambda b: np.sin(b) * 2)(a))(x).jaxpr)


def test_without_sigalrm_a_watchdog_stops_a_hanging_jac(answer, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Windows has no SIGALRM: the time limit is a watchdog thread interrupting the main thread."""
    import signal
    import time

    from checker.engine import _runner

    monkeypatch.delattr(signal, "setitimer")
    monkeypatch.delattr(signal, "SIGALRM")
    start = time.monotonic()
    verdict = check_file("neg", answer("neg", "def jac(x):\n    while True:\n        pass\n"), timeout=0.5)
    assert (verdict.status, verdict.kinds()) == (Status.ERROR, (Kind.TIMEOUT,))
    assert verdict.message == "jac did not return within 0.5 s on the random draw 1"
    assert time.monotonic() - start < 30
    # An answer that swallows KeyboardInterrupt is stopped all the same, and nothing stray is left:
    swallow = (
        "def jac(x):\n    while True:\n        try:\n            while True:\n                pass\n        "
        "except KeyboardInterrupt:\n            pass\n"
    )
    verdict = check_file("neg", answer("neg", swallow), timeout=0.5)
    assert verdict.kinds() == (Kind.TIMEOUT,)
    assert (
        check_file(
            "neg", answer("neg", "import jax.numpy as np\n\ndef jac(x):\n    return -np.eye(10)\n"), timeout=5
        ).status
        is Status.PASS
    )
    assert not _runner._expired.is_set()


def test_a_batched_answer_that_compares_floats_marks_its_subnormal_apart_draws_to_run_op_by_op() -> None:
    # Traced for the grader's batch, such an answer stays in it; only the draws with two entries
    # a subnormal distance apart run on their own op by op, as `check` runs them.
    from checker.engine._catalog import puzzle_named
    from checker.engine._runner import trace_batched
    from checker.engine._sampling import draws
    from tests.conftest import REPO

    puzzle = puzzle_named("max_pool")
    batch = draws(puzzle, 0)
    apart = tuple(k for k, d in enumerate(batch) if d.subnormal_apart)
    assert apart, "max_pool's draws lost the entries a subnormal distance apart"
    comparing = REPO / "tests" / "corpus" / "layers" / "max_pool" / "winner_by_sign_of_difference.py"
    traced = trace_batched(puzzle, comparing, batch)
    assert traced is not None and traced.op_by_op == apart
    plain = REPO / "solutions" / "layers" / "max_pool.py"  # compares no floats: all in the batch
    traced = trace_batched(puzzle, plain, batch)
    assert traced is not None and traced.op_by_op == ()
