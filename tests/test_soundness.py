"""Nothing an answer does ends a run, hides a verdict or changes another one; verdicts are no luck.

Each test here is a class of hole, closed in general: exits of every
kind, a learner's own KeyboardInterrupt, Ctrl-C, answers that change JAX's settings or JAX itself,
right answers whose verdict depended on the seed or on their dtype, and the diagnoses that misled.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from checker import Kind, Status, check_answer, check_file
from tests.conftest import REPO, SOLUTIONS
from tests.test_cli import jacpuzzles

CUMSUM_RIGHT = (SOLUTIONS / "autodiff" / "cumsum.py").read_text()
NEG_RIGHT = "import jax.numpy as np\n\ndef jac(x):\n    return -np.eye(10)\n"
NEG_WRONG = "import jax.numpy as np\n\ndef jac(x):\n    return np.eye(10)\n"


def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, body in files.items():
        (tmp_path / f"{name}.py").write_text(body)
    return tmp_path


# ---- exits and exceptions of every kind are that puzzle's error, and the run goes on ----

EXITS = {
    "exit() in jac": "def jac(x):\n    exit()\n",
    "quit() at import": "quit()\ndef jac(x):\n    return x\n",
    "sys.exit(0) at import": "import sys\nsys.exit(0)\n",
    "sys.exit(3) in jac": "import sys\ndef jac(x):\n    sys.exit(3)\n",
    "os._exit(3) in jac": "import os\ndef jac(x):\n    os._exit(3)\n",
    "os._exit(0) at import": "import os\nos._exit(0)\n",
    "KeyboardInterrupt raised by the answer": "def jac(x):\n    raise KeyboardInterrupt\n",
    "a custom BaseException": "class Stop(BaseException):\n    pass\n\ndef jac(x):\n    raise Stop('no')\n",
    "GeneratorExit at import": "raise GeneratorExit\n",
    "exit() inside a jitted trace": "import jax.numpy as np\ndef jac(x):\n    if x.sum() > -100:\n        exit(1)\n    "
                                    "return -np.eye(10)\n",
}


@pytest.mark.parametrize("case", sorted(EXITS))
def test_an_exit_or_base_exception_is_that_answers_error(tmp_path: Path, case: str) -> None:
    verdict = check_file("neg", _folder(tmp_path, {"neg": EXITS[case]}) / "neg.py")
    assert verdict.status is Status.ERROR, verdict.message
    assert verdict.kinds() == (Kind.EXCEPTION,)


def test_exit_messages_say_what_was_called_and_what_to_do(tmp_path: Path) -> None:
    verdict = check_file("neg", _folder(tmp_path, {"neg": EXITS["os._exit(3) in jac"]}) / "neg.py")
    assert verdict.message == (
        "jac raised an exit (os._exit(3) was called) on the random draw 1: an answer returns its "
        "Jacobian and must not end the program; remove that call"
    )
    verdict = check_file("neg", _folder(tmp_path, {"neg": EXITS["sys.exit(3) in jac"]}) / "neg.py")
    assert verdict.message.startswith("jac raised SystemExit (exit(), quit() or sys.exit() was called, status 3)")


def test_a_leftover_exit_does_not_hide_the_other_verdicts_from_check(tmp_path: Path) -> None:
    # An answer's os._exit(0) at import neither hides the other verdicts nor exits 0: every verdict, exit 1.
    folder = _folder(
        tmp_path,
        {"cumsum": CUMSUM_RIGHT, "mean": "import os\nos._exit(0)\n", "neg": NEG_WRONG, "id": EXITS["exit() in jac"]},
    )
    result = jacpuzzles("check", "cumsum", "mean", "neg", "id", "--dir", str(folder), "--json")
    assert result.returncode == 1, result.stderr
    verdicts = {r["puzzle"]: r["status"] for r in json.loads(result.stdout)["results"]}
    assert verdicts == {"cumsum": "pass", "mean": "error", "neg": "fail", "id": "error"}
    shown = jacpuzzles("check", "cumsum", "mean", "neg", "id", "--dir", str(folder))
    assert shown.returncode == 1
    for line in ("cumsum", "mean", "neg", "id", "pass: 1  fail: 1  error: 2"):
        assert line in shown.stdout


def test_ctrl_c_exits_130_with_a_short_message(tmp_path: Path) -> None:
    folder = _folder(tmp_path, {"neg": "import time\ndef jac(x):\n    while True:\n        time.sleep(0.01)\n"})
    proc = subprocess.Popen(
        [sys.executable, "-m", "checker", "check", "neg", "--dir", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, stdin=subprocess.DEVNULL,
    )
    time.sleep(6)  # JAX imported, the answer running
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert "interrupted (Ctrl-C)" in err
    assert "Traceback" not in err


# ---- nothing an answer does changes the expected Jacobians or later verdicts ----


def test_an_answer_that_changes_jax_settings_changes_no_other_verdict(tmp_path: Path) -> None:
    flips = "import jax\njax.config.update('jax_enable_x64', False)\njax.config.update('jax_debug_nans', True)\n"
    folder = _folder(tmp_path, {"neg": flips + NEG_RIGHT, "cumsum": CUMSUM_RIGHT})
    first = jacpuzzles("check", "neg", "cumsum", "--dir", str(folder), "--json")
    again = jacpuzzles("check", "cumsum", "--dir", str(folder), "--json")
    assert first.returncode == 0 and again.returncode == 0, first.stdout + again.stdout
    assert {r["status"] for r in json.loads(first.stdout)["results"]} == {"pass"}


def test_the_expected_jacobians_are_computed_before_any_answer_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An answer that replaces jnp.cos at import must not change what cos's expected Jacobian is.
    monkeypatch.setenv("JACPUZZLES_CACHE", "off")
    sabotage = (
        "import jax.numpy as jnp\n_real = jnp.sin\njnp.cos = lambda x: 0 * x\n\ndef jac(x):\n    return "
        "-_real(x)[:, None]\n"
    )
    path = _folder(tmp_path, {"cos": sabotage}) / "cos.py"
    real_cos = jnp.cos
    try:
        assert check_file("cos", path).status is Status.PASS
        wrong = _folder(
            tmp_path,
            {"cos": "import jax.numpy as jnp\njnp.cos = lambda x: 0 * x\ndef jac(x):\n    return 0 * x[:, None]\n"},
        )
        assert check_file("cos", wrong / "cos.py").status is Status.FAIL
    finally:
        jnp.cos = real_cos


def test_a_notebook_keeps_its_own_jax_settings() -> None:
    before = jax.config.values["jax_enable_x64"]
    check_answer("neg", lambda x: -jnp.eye(10))
    assert jax.config.values["jax_enable_x64"] == before


def test_the_cache_key_covers_the_numeric_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    from checker.engine import _catalog, _numerics, _oracles, _sampling

    puzzle = _catalog.get("cumsum")
    assert puzzle is not None
    batch = _sampling.draws(puzzle, 0)
    key = _oracles._key(puzzle, batch)
    _numerics.settings_digest.cache_clear()
    monkeypatch.setitem(_numerics.PINNED, "jax_default_matmul_precision", "bfloat16")
    try:
        assert _oracles._key(puzzle, batch) != key
    finally:
        monkeypatch.undo()
        _numerics.settings_digest.cache_clear()


# ---- a verdict is no luck: the same on every seed ----

# Right to the last digits everywhere: the same value as -sin(x), or the same up to rounding
# relative to the entry.
EXACT = {
    "sin(-x)": lambda x: jnp.sin(-x)[:, None],
    "negative(sin(x))": lambda x: jnp.negative(jnp.sin(x))[:, None],
}
# Exact in maths, yet no correct digit near 0, where the contract is relative to the entry
# itself (a block of one entry): x + pi/2 and x % 2pi round x away (red team, round 12: an
# answer that snaps such an x to 0 is wrong there too, and no draw came closer than 1e-7).
LOSING_DIGITS_NEAR_0 = {
    "cos(x + pi/2)": lambda x: jnp.cos(x + jnp.pi / 2)[:, None],
    "-sin(x % 2 pi)": lambda x: -jnp.sin(x % (2 * jnp.pi))[:, None],
    # x / 2 is a subnormal just above float64's smallest normal, which XLA flushes to 0
    "-2 sin(x/2) cos(x/2)": lambda x: (-2 * jnp.sin(x / 2) * jnp.cos(x / 2))[:, None],
}


@pytest.mark.parametrize("case", sorted(EXACT))
def test_formulas_right_to_rounding_pass_on_every_seed(case: str) -> None:
    failed = [seed for seed in range(8) if check_answer("cos", EXACT[case], seed=seed).status is not Status.PASS]
    assert not failed, f"{case} fails on seeds {failed}"


@pytest.mark.parametrize("case", sorted(LOSING_DIGITS_NEAR_0))
def test_formulas_exact_in_maths_without_digits_near_0_fail_on_every_seed(case: str) -> None:
    passed = [seed for seed in range(3) if check_answer("cos", LOSING_DIGITS_NEAR_0[case], seed=seed).passed]
    assert not passed, f"{case} passes on seeds {passed}"


def test_a_one_entry_block_is_judged_at_its_zeros_away_from_0_too() -> None:
    # cos(2x)'s one entry, -2 sin(2x), crosses zero at multiples of pi/2. It is its block's
    # largest entry: the zero search scales it by the largest it gets along the segment, and
    # keeps zeros away from 0 too (red team RT24: an angle reduced by k * np.pi passed); the
    # draws of the argument alone at 1e-12 to 1e-9 and 1e-41 to 1e-39 reach the zero at 0,
    # where 2 cos(2x + pi/2), exact in maths, keeps no digit, and pi/2 to 10 digits is off too.
    import numpy as np

    from checker.engine import _sampling, _variants, _zeros

    freq2 = {"freq": 2}
    found = _zeros.found(_variants.variant("cos", freq2), _sampling.SAMPLER)
    zeros = [float(values[0][0]) for _, values in found.zeros]
    multiples = [z / (np.pi / 2) for z in zeros]
    assert any(abs(m) >= 1 for m in multiples), zeros
    assert all(abs(m - round(m)) < 1e-9 for m in multiples), zeros
    for shift in (jnp.pi / 2, 1.570796327):
        answer = lambda x, shift=shift: jnp.where(x == 0, 0.0, 2 * jnp.cos(2 * x + shift))[:, None]  # noqa: E731
        passed = [seed for seed in range(3) if check_answer("cos", answer, seed=seed, variant=freq2).passed]
        assert not passed, f"shift {shift}: passes on seeds {passed}"
    right = lambda x: (-2 * jnp.sin(2 * x))[:, None]  # noqa: E731
    assert all(check_answer("cos", right, seed=seed, variant=freq2).passed for seed in range(3))


def test_a_compiled_answer_computes_what_its_code_says() -> None:
    # XLA's algebraic simplifier turns sqrt(g**2) into |g|, right where g**2 underflows to 0 as
    # the code runs op by op in a notebook (red teams, rounds 9 and 12): answers are compiled
    # without it.
    import numpy as np

    from checker.engine._numerics import pinned
    from checker.engine._settings import ANSWER_COMPILE

    g = np.array([1e-170, -3e-171])
    with pinned():  # float64, as the checker runs answers
        assert list(jax.jit(jnp.abs)(g)) == [1e-170, 3e-171]
        assert list(jax.jit(lambda g: jnp.sqrt(g**2))(g)) == [1e-170, 3e-171]  # the simplifier's rewrite
        assert list(jax.jit(lambda g: jnp.sqrt(g**2), compiler_options=ANSWER_COMPILE)(g)) == [0.0, 0.0]


def test_cos_small_angle_shortcut_fails_on_every_seed() -> None:
    # sin(x) ~ x "for small x": off by up to 1.7e-5 relative, wherever |x| < 0.01.
    shortcut = lambda x: jnp.where(jnp.abs(x) < 1e-2, -x, -jnp.sin(x))[:, None]  # noqa: E731
    passed = [seed for seed in range(8) if check_answer("cos", shortcut, seed=seed).passed]
    assert not passed


# ---- right answers are not rejected for their type ----


def test_a_bfloat16_or_float16_answer_with_exact_values_passes() -> None:
    assert check_answer("relu", lambda x: jnp.diag(x > 0).astype(jnp.bfloat16)).status is Status.PASS
    assert check_answer("neg", lambda x: -jnp.eye(10, dtype=jnp.float16)).status is Status.PASS


def test_a_float16_answer_that_loses_digits_fails_and_is_told_why() -> None:
    verdict = check_answer("mean", lambda x: jnp.full((1, 10), 0.1, dtype=jnp.float16))
    assert verdict.status is Status.FAIL
    assert verdict.kinds()[0] is Kind.PRECISION
    assert "float16 (about 3 significant digits)" in verdict.message


def test_a_float32_answer_is_judged_at_float32_precision() -> None:
    def band(x: object) -> jnp.ndarray:
        return (jnp.arange(10)[None, :] >= jnp.arange(8)[:, None]) & (
            jnp.arange(10)[None, :] < jnp.arange(8)[:, None] + 3
        )

    assert check_answer("running_mean", lambda x: (band(x) / 3).astype(jnp.float32)).status is Status.PASS
    assert check_answer("running_mean", lambda x: band(x) * 0.33333).status is Status.FAIL


def test_a_tuple_literal_is_read_as_an_array() -> None:
    # ((2.0,),) is read as np.asarray reads it: the (1, 1) Jacobian of id, not a tuple of blocks.
    assert check_answer("id", lambda x: ((2.0,),)).status is Status.PASS
    assert check_answer("id", lambda x: [[2.0]]).status is Status.PASS
    assert check_answer("id", lambda x: (jnp.full((1, 1), 2.0),)).status is Status.PASS


# ---- diagnoses that do not mislead ----


def test_broadcast_is_claimed_only_when_right_on_every_draw() -> None:
    # Right when broadcast, except NaN at a zero entry: no broadcast advice for that.
    prod_row = lambda x: (jnp.prod(x) / x)  # noqa: E731
    verdict = check_answer("prod", prod_row)
    assert Kind.BROADCAST not in verdict.kinds()
    assert check_answer("repeat", lambda x: jnp.ones(1)).kinds()[0] in (Kind.GRADIENT, Kind.BROADCAST)
    assert Kind.BROADCAST in check_answer("repeat", lambda x: jnp.ones(1)).kinds()


def test_one_axis_too_many_is_named() -> None:
    verdict = check_answer("neg", lambda x: jnp.broadcast_to(-jnp.eye(10), (3, 10, 10)))
    assert verdict.kinds()[0] is Kind.EXTRA_AXIS
    assert "every slice of yours along axis 0 is already the whole Jacobian" in verdict.message


def test_wrong_cells_are_counted_as_wrong_and_printed_with_enough_digits() -> None:
    verdict = check_answer("neg", lambda x: -jnp.eye(10) * (1 + 1e-5 * (jnp.arange(10) == 3)))
    assert verdict.status is Status.FAIL
    assert "is wrong on 1 of 100 entries" in verdict.message
    assert "yours -1.00001, expected -1" in verdict.message
