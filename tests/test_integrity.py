"""Autodiff and kit-import detection: the static scan of answer files, and the runtime guards of
the grading worker (in a subprocess: they patch JAX and `__import__` for the whole process)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from checker import chapters, puzzles
from checker.engine import _integrity as integrity
from checker.engine._integrity import message
from checker.engine._source_scan import category, describe, scan
from tests.conftest import PUZZLES, REPO, SOLUTIONS


def _names(source: str) -> list[str]:
    return [f.name for f in scan(textwrap.dedent(source))]


@pytest.mark.parametrize("root", [PUZZLES, SOLUTIONS], ids=["stubs", "solutions"])
def test_no_stub_and_no_reference_answer_is_flagged(root: Path) -> None:
    files = sorted(p for p in root.rglob("*.py") if p.relative_to(root).parts[0] in {c.name for c in chapters()})
    assert len(files) == len(puzzles()) == 58
    assert {p.name: scan(p.read_text()) for p in files if scan(p.read_text())} == {}


@pytest.mark.parametrize(
    "source, expected",
    [
        ("import jax\ndef jac(x):\n    return jax.jacfwd(f)(x)\n", ["jax.jacfwd"]),
        ("import jax as J\nJ.jacrev(f)\n", ["jax.jacrev"]),
        ("from jax import jacfwd as jf\njf(f)\n", ["jax.jacfwd"]),
        (
            "import jax\njax.value_and_grad(f)\njax.hessian(f)\njax.linearize(f, x)\n",
            ["jax.value_and_grad", "jax.hessian", "jax.linearize"],
        ),
        ("from jax import vjp, jvp\n", ["jax.vjp", "jax.jvp"]),
        ("getattr(__import__('ja' + 'x'), 'jac' + 'fwd')(f)\n", ["jax.jacfwd"]),
        ("import jax\nvars(jax)['grad']\njax.__dict__['hessian']\n", ["jax.grad", "jax.hessian"]),
        ("from jax._src.api import jacfwd\n", ["jax._src.api.jacfwd"]),
        (
            "from jax.experimental import jet\njet.jet(f, (x,), ((x,),))\n",
            ["jax.experimental.jet", "jax.experimental.jet.jet"],
        ),
        ("from jax import *\ngrad(f)\n", ["jax.grad"]),
        ("import tensorflow as tf\nwith tf.GradientTape() as tape:\n    pass\n", ["tensorflow.GradientTape"]),
        ("import torch\ntorch.autograd.functional.jacobian(f, x)\n", ["torch.autograd.functional.jacobian"]),
        ("from torch.func import jacrev\nimport functorch\n", ["torch.func", "functorch"]),
        ("import checker\n", ["checker"]),
        ("from checker.engine._engine import check_files\n", ["checker.engine._engine"]),
        ("__import__('chec' + 'ker')\n", ["checker"]),
        ("import importlib\nimportlib.import_module('solutions.autodiff.cumsum')\n", ["solutions.autodiff.cumsum"]),
        ("import sys\nsys.modules['checker.engine._report']\n", ["checker.engine._report"]),
        ("import sys\nsys.modules.get('checker.engine._integrity')\n", ["checker.engine._integrity"]),
        ("from sys import modules\nmodules.get('checker.' + '_integrity')\n", ["checker._integrity"]),
    ],
)
def test_autodiff_and_kit_imports_are_found_through_aliases_and_strings(source: str, expected: list[str]) -> None:
    assert _names(source) == expected


@pytest.mark.parametrize("source", [
    # A learner's own names that happen to be JAX's: never flagged.
    "import jax.numpy as np\ndef jac(x):\n    grad = np.ones(3)\n    jacfwd = grad * 2\n    return jacfwd\n",
    "import jax.numpy as jnp\ndef vjp(x, g):\n    return g * 2\n",  # gather_vjp's answer is called vjp
    "def hessian(grad):\n    return grad\nvalue_and_grad = hessian(1)\n",
    "from jax.numpy import *\ngrad = 1\n",
    "import jax\njax.numpy.gradient\njax.custom_jvp\njax.lax.stop_gradient\njax.jit\njax.vmap\n",
    "'''jax.jacfwd(f) in a docstring'''\n# jax.grad(f) in a comment\ns = 'import checker'\n",
    "def jac(x:\n",  # a syntax error: running it reports that
])
def test_a_learners_own_names_strings_and_comments_are_not_flagged(source: str) -> None:
    assert scan(source) == []


def test_findings_carry_the_line_and_the_diagnosis_names_them() -> None:
    found = scan("import jax as J\n\n\nx = J.jacfwd\ny = J.grad\nimport checker.engine._engine\n")
    assert [(f.line, f.name, f.kind) for f in found] == [
        (4, "jax.jacfwd", "autodiff"),
        (5, "jax.grad", "autodiff"),
        (6, "checker.engine._engine", "kit"),
    ]
    text = describe(found, "autodiff/cumsum.py")
    assert text.startswith(
        "autodiff/cumsum.py uses jax.jacfwd (line 4), jax.grad (line 5): answers must compute the Jacobian by hand; "
        "autodiff is not allowed"
    )
    assert "imports checker.engine._engine (line 6)" in text and text.endswith(
        "It was not run: remove that code and resubmit"
    )


def test_category_matches_whole_names_only() -> None:
    assert category("jax.grad") == "autodiff" and category("jax.grad.x") == "autodiff"
    assert category("jax.gradient") is None and category("jax.numpy.gradient") is None
    assert category("solutions") == "kit" and category("checkers") is None


def test_message_for_the_worker_names_the_calls() -> None:
    assert (
        message(["jax.jacfwd", "jax.jacfwd"])
        == "calls jax.jacfwd: answers must compute the Jacobian by hand; autodiff is not allowed"
    )
    both = message(["jax.grad", "import checker.engine._engine"])
    assert both == ("calls jax.grad: answers must compute the Jacobian by hand; autodiff is not allowed; "
                    "imports checker.engine._engine: answers may not use the checker's code or the reference answers")


GUARDED = '''
import json, sys
from pathlib import Path
import jax, jax.numpy as jnp
from checker.engine import _integrity, _runner, _sampling
from checker.engine._catalog import puzzles
_runner.own_primitives()  # as the grader's zygote does, before any guard refuses `gc`
_integrity.install_guards()
_integrity.install_guards()  # idempotent
results = {}

def attempt(label, thunk):
    try:
        thunk()
        results[label] = ["ran", _integrity.used()]
    except _integrity.Forbidden as exc:
        results[label] = [str(exc), _integrity.used()]

f = lambda x: jnp.sin(x)
attempt("jacfwd", lambda: jax.jacfwd(f)(jnp.ones(3)))
attempt("getattr", lambda: getattr(__import__("ja" + "x"), "jac" + "fwd")(f))
def from_api():
    from jax._src.api import jacrev
    jacrev(f)
attempt("from_api", from_api)
attempt("grad_in_jit", lambda: jax.jit(lambda x: jax.grad(lambda y: y.sum())(x))(jnp.ones(3)))
def jet():
    from jax.experimental.jet import jet
    jet(f, (1.0,), ((1.0,),))
attempt("jet", jet)
def swallowed():
    try:
        jax.vjp(f, jnp.ones(3))
    except BaseException:
        pass
attempt("swallowed", swallowed)
attempt("import_checker", lambda: exec("import checker.engine._engine"))
attempt("dunder_import", lambda: __import__("solutions"))
attempt("import_module", lambda: __import__("importlib").import_module("checker"))
attempt("numpy_is_fine", lambda: __import__("numpy"))
# The kit's own code still imports itself, and every reference answer runs clean under the guards.
failed = []
for p in puzzles():
    draws = _sampling.draws(p, 0)[:1]
    run = _runner.run(p, Path(sys.argv[1]) / p.chapter / f"{p.name}.py", draws, 60)
    if run.problem is not None or _integrity.used():
        failed.append([p.name, run.problem and run.problem.message])
results["solutions"] = failed
print(json.dumps(results))
'''


def test_runtime_guards_stop_autodiff_and_kit_imports_but_not_the_kit(tmp_path: Path) -> None:
    script = tmp_path / "learner_side.py"  # outside the kit: its imports of checker are refused
    script.write_text(GUARDED)
    done = subprocess.run(
        [sys.executable, str(script), str(SOLUTIONS)],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    results = json.loads(done.stdout.splitlines()[-1])
    autodiff = "answers must compute the Jacobian by hand; autodiff is not allowed"
    assert results["jacfwd"] == [f"calls jax.jacfwd: {autodiff}", ["jax.jacfwd"]]
    assert results["getattr"] == [f"calls jax.jacfwd: {autodiff}", ["jax.jacfwd"]]
    assert results["from_api"] == [f"calls jax.jacrev: {autodiff}", ["jax.jacrev"]]
    assert results["grad_in_jit"][1] == ["jax.grad"]
    assert results["jet"][1] == ["jax.experimental.jet.jet"]
    assert results["swallowed"] == ["ran", ["jax.vjp"]]  # caught by the answer, recorded anyway
    assert results["import_checker"][1] == ["import checker.engine._engine"]
    assert results["import_checker"][0].startswith("imports checker.engine._engine: answers may not use")
    assert results["dunder_import"][1] == ["import solutions"]
    assert results["import_module"][1] == ["import checker"]
    assert results["numpy_is_fine"] == ["ran", []]
    assert results["solutions"] == []


def test_rewriting_the_guards_state_while_armed_is_refused_and_undone() -> None:
    """In `check`, an answer switching the guards' flags off is refused when
    it returns, and the flags are back for the next answer; a nested check is no rewrite."""
    from checker.engine import _integrity

    _integrity.used()
    with _integrity.armed():
        with _integrity.armed():
            pass
    assert _integrity.used() == []
    trusted = _integrity._STATE.trusted
    with _integrity.armed():
        _integrity._STATE.depth = 0
        _integrity._STATE.trusted = ("/",)
        _integrity._STATE.gated_ids.clear()
        assert not _integrity.refusing()
    assert _integrity.used() == [
        f"{_integrity.PROBE}rewrites the checker's own guards (its module checker.engine._integrity)"
    ]
    assert _integrity._STATE.depth == 0 and _integrity._STATE.trusted == trusted and _integrity._STATE.gated_ids
    with _integrity.armed():
        assert _integrity.refusing()
    assert _integrity.used() == []


def test_rebinding_jax_s_guarded_code_while_armed_is_refused_and_put_back() -> None:
    """In `check`, an answer that puts functions of its own (rebuilt from JAX's
    compiled files, here stand-ins) where JAX's classes, modules and rule tables hold the guarded
    ones is refused when it returns, and every place holds the guarded function again."""
    import jax._src.interpreters.ad as ad
    from jax import lax

    from checker.engine import _integrity

    _integrity.install_guards(always=False)
    with _integrity.armed():
        pass
    _integrity.used()
    method = vars(ad.JVPTrace)["process_primitive"]
    module_level = ad.backward_pass
    rule = ad.primitive_jvps[lax.sin_p]
    with _integrity.armed():
        ad.JVPTrace.process_primitive = lambda *args, **kwargs: None  # type: ignore[method-assign]
        ad.backward_pass = lambda *args, **kwargs: None
        ad.primitive_jvps[lax.sin_p] = lambda *args, **kwargs: None
    used = _integrity.used()
    assert len(used) == 1 and used[0].startswith(f"{_integrity.PROBE}replaces JAX's guarded differentiation code (")
    assert "JVPTrace.process_primitive" in used[0] or "a rule of sin" in used[0]
    assert vars(ad.JVPTrace)["process_primitive"] is method and ad.backward_pass is module_level
    assert ad.primitive_jvps[lax.sin_p] is rule
    with _integrity.armed():
        pass
    assert _integrity.used() == []


def test_rewriting_the_gate_s_own_code_while_armed_is_refused() -> None:
    """In `check`, the gate is a constant of every guarded function's
    code, so an answer can find it; setting its code or defaults is refused before it happens."""
    from checker.engine import _integrity

    _integrity.install_guards(always=False)
    gate = _integrity._gate_in_use()
    code, defaults = gate.__code__, gate.__defaults__
    _integrity.used()
    with _integrity.armed():
        with pytest.raises(_integrity.Forbidden, match="rewrites _gate.__code__"):
            gate.__code__ = (lambda key, args, kwargs: None).__code__
        with pytest.raises(_integrity.Forbidden, match="rewrites _gate.__defaults__"):
            gate.__defaults__ = (None,)
    assert gate.__code__ is code and gate.__defaults__ is defaults
    assert _integrity.used() == [
        f"{_integrity.PROBE}rewrites _gate.__code__",
        f"{_integrity.PROBE}rewrites _gate.__defaults__",
    ]


def test_jax_s_own_custom_derivative_rules_are_refused_while_armed() -> None:
    """`jax.nn.relu.jvp` is JAX's hand-written derivative of relu, callable
    without any trace; it is guarded like the derivative tables, and JAX's own use of it (the
    kit's oracles, outside an answer) still works."""
    import jax
    import jax.numpy as jnp

    from checker.engine import _integrity

    _integrity.install_guards(always=False)
    with _integrity.armed():
        pass
    _integrity.used()
    x = jnp.array([-1.0, 2.0])
    with _integrity.armed():
        with pytest.raises(_integrity.Forbidden, match="custom_jvp and custom_vjp"):
            jax.nn.relu.jvp((x,), (jnp.ones_like(x),))
        assert list(jax.nn.relu(x)) == [0.0, 2.0]  # the function itself is fine
    assert _integrity.used() == [f"{_integrity.REACHED}{_integrity._CUSTOM}"]
    assert jax.jacfwd(jax.nn.relu)(x).tolist() == [[0.0, 0.0], [0.0, 1.0]]  # the kit's own use



def _switched_off(value: Any) -> Any:
    """What an answer would put in a field of the guards' state to switch them off."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return 10**9  # a depth never lowered back, a count of modules that no import reaches
    if isinstance(value, str):
        return "/"
    if isinstance(value, tuple):
        return ("/",)
    if isinstance(value, frozenset):
        return frozenset()
    if isinstance(value, (dict, set, list)):
        return type(value)()
    return lambda *args, **kwargs: None  # the gate (None in `check`, meaning `_gate`)


def _emptied(value: Any) -> Any:
    """The same container, emptied in place (a dict of counts: each count raised past anything loaded)."""
    if isinstance(value, dict) and value and all(type(v) is int for v in value.values()):
        value.update({k: 10**9 for k in value})
    elif isinstance(value, (dict, set, list)):
        value.clear()
    return value


REWRITE = "rewrites the checker's own guards (its module checker.engine._integrity)"


def _rewrite_while_armed(rewrite: Any) -> list[str]:
    integrity.install_guards(always=False)
    with integrity.armed():
        pass
    integrity.used()
    with integrity.armed():
        rewrite()
    return integrity.used()


def _still_refusing() -> None:
    """The next answer finds the guards as they were."""
    with integrity.armed():
        assert integrity.refusing()
        with pytest.raises(integrity.Forbidden, match="calls jax.jacfwd"):
            import jax
            jax.jacfwd(lambda x: x)(1.0)
    assert integrity.used() == ["jax.jacfwd"]


@pytest.mark.parametrize("how", ["rebound", "emptied"])
@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(integrity._GuardState)])
def test_rewriting_any_field_of_the_guards_state_while_armed_is_caught(name: str, how: str) -> None:
    """Every field of the guards' state, whatever its kind, is covered by `armed`'s comparison: an
    answer that rebinds it (or empties the container it holds) is refused and the field put back;
    what the guards only remember (a cache) is dropped and made again. A field added to the state
    is in this test (and in the comparison) without being listed anywhere."""
    state = integrity._STATE
    integrity.install_guards(always=False)
    with integrity.armed():
        pass
    value = getattr(state, name)
    if how == "emptied" and not (isinstance(value, (dict, set, list)) and value):
        pytest.skip(f"{name} holds no container with something in it")
    held = value.copy() if isinstance(value, (dict, set, list)) else None
    places = list(integrity._bindings())  # where JAX holds guarded code, compared after each answer
    rewritten: list[Any] = []

    def rewrite() -> None:
        rewritten.append(_switched_off(value) if how == "rebound" else _emptied(getattr(state, name)))
        setattr(state, name, rewritten[0])

    used = _rewrite_while_armed(rewrite)
    kind = integrity._tamper(name)
    assert kind in ("decides", "log", "progress", "cache"), kind
    if kind == "log" and how == "emptied":
        assert used == []  # what was refused so far: the kit itself empties it (`used()`)
    elif kind == "cache":
        assert used == [] and (getattr(state, name) is not rewritten[0] or getattr(state, name) != held), name
    else:
        assert used == [f"{integrity.PROBE}{REWRITE}"], name
        assert getattr(state, name) is value or (held is None and getattr(state, name) == value), name
        if held is not None and kind != "log":
            assert getattr(state, name) == held, name
    _still_refusing()
    assert integrity._bindings() == places, name


def _module_names() -> list[str]:
    own = [
        n for n, v in vars(integrity).items() if getattr(v, "__module__", None) == integrity.__name__ and callable(v)
    ]
    return sorted({*own, "_STATE", "KIT", "JAX_AUTODIFF", "_TABLES", "_TRACES", "PROBE"})


@pytest.mark.parametrize("name", _module_names())
def test_rebinding_any_name_of_the_guards_module_while_armed_is_caught(name: str) -> None:
    """The module's names (its functions, its state object, what it imported) are compared too,
    all of them: an answer that rebinds one is refused, and the name put back."""
    value = getattr(integrity, name)
    used = _rewrite_while_armed(lambda: setattr(integrity, name, _switched_off(value)))
    assert used == [f"{integrity.PROBE}{REWRITE}"]
    assert getattr(integrity, name) is value
    _still_refusing()
