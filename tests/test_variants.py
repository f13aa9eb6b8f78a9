"""Per-student variants: the catalog's parameters, which variant a student gets, and that every
variant is a sound puzzle of its own (its reference answer passes, its stub and other variants'
answers do not)."""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from checker import check_answer
from checker.engine import _catalog, _oracles, _runner, _sampling, _stubs, _tf_oracle, _variants
from checker.engine._catalog import CatalogError, Puzzle
from tests.conftest import REPO, SOLUTIONS

HERE = Path(__file__).parent / "variants"
PARAMETERIZED = [p for p in _catalog.puzzles() if p.params]


def _reference_source(puzzle: Puzzle) -> str:
    """The variant's reference answer: the template kept with the tests, placeholders filled in."""
    template = (HERE / puzzle.chapter / f"{puzzle.name}.py").read_text()
    return _variants.fill(puzzle, template)


def _load_jac(puzzle: Puzzle, answer: str) -> Callable[..., Any]:
    """`jac` (or `vjp`) from an answer below the variant's own header, as a learner's file has it."""
    namespace: dict[str, Any] = {"__name__": f"answer_{puzzle.name}"}
    exec(compile(_stubs.header(puzzle) + _stubs.MARKER + "\n" + answer, f"<{puzzle.name}>", "exec"), namespace)
    return namespace[puzzle.answer_name]  # type: ignore[no-any-return]


# --- the catalog's format ---------------------------------------------------------------------


def test_the_canonical_variant_is_todays_puzzle_for_every_puzzle() -> None:
    # canonical.json holds every field of every canonical puzzle (the catalog without variants).
    before = json.loads((HERE / "canonical.json").read_text())
    assert set(before) == {p.name for p in _catalog.puzzles()}
    for puzzle in _catalog.puzzles():
        canonical = _variants.variant(puzzle)
        now = json.loads(
            json.dumps({k: getattr(canonical, k) for k in before[puzzle.name]}, default=dataclasses.asdict)
        )
        assert now == before[puzzle.name], puzzle.name
        assert canonical.variant == () and canonical is puzzle
        first = {p.name: p.choices[0] for p in puzzle.params}
        assert _variants.variant(puzzle, first) is puzzle


def test_at_least_thirty_puzzles_in_both_chapters_have_parameters() -> None:
    assert len(PARAMETERIZED) >= 30, [p.name for p in PARAMETERIZED]
    assert {p.chapter for p in PARAMETERIZED} == set(_catalog.CHAPTERS)


def test_a_learner_never_sees_a_placeholder() -> None:
    for base in PARAMETERIZED:
        for puzzle in _variants.variants(base):
            texts = [
                puzzle.title,
                puzzle.statement,
                puzzle.code,
                puzzle.backward,
                puzzle.why,
                *puzzle.hints,
                _stubs.stub(puzzle),
            ]
            assert not any(_catalog.PLACEHOLDER.search(t) for t in texts), (puzzle.name, puzzle.variant)


def test_a_variant_renders_concrete_code_and_text() -> None:
    puzzle = _variants.variant("cumsum", {"direction": "right", "scale": 25})
    assert "return np.cumsum(x[::-1])[::-1] / 25" in puzzle.code
    assert puzzle.variant == (("direction", "right"), ("scale", 25))
    assert puzzle.hints[-1].startswith("`(Is >= Os) / 25`, with `Is = np.arange(10)`")
    assert "upper triangle" in puzzle.why and "1/25" in puzzle.why
    assert "return np.cumsum(x[::-1])[::-1] / 25" in _stubs.stub(puzzle)


def test_a_choice_can_be_given_as_text() -> None:
    assert _variants.variant("cumsum", {"scale": "25"}) == _variants.variant("cumsum", {"scale": 25})
    assert _variants.variant("relu", {"leak": "0.1"}).variant == (("leak", 0.1),)


def test_variants_that_change_sizes_change_the_shapes() -> None:
    puzzle = _variants.variant("running_mean", {"width": 5})
    assert puzzle.outs == ((6,),) and puzzle.jac_shapes() == ((6, 10),)
    assert 'Shaped[Array, "6"]' in puzzle.code and "np.ones(5) / 5" in puzzle.code


def test_an_unknown_parameter_or_choice_is_a_catalog_error() -> None:
    with pytest.raises(CatalogError, match="no parameters \\['speed'\\]"):
        _variants.variant("cumsum", {"speed": 2})
    with pytest.raises(CatalogError, match="no choice 'up'; choices: \\['left', 'right'\\]"):
        _variants.variant("cumsum", {"direction": "up"})


def _raw(**changes: Any) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "name": "scaled", "title": "Scaled", "points": 1, "statement": "$f(x) = {{k}} x$.",
        "code": 'def scaled(x: Shaped[Array, "3"]) -> Shaped[Array, "3"]:\n    return {{k.code}}\n',
        "out": [3], "hints": ["Slope {{k}}."], "why": "It scales by {{k}}.",
        "args": [{"name": "x", "shape": [3]}],
        "params": {"k": {"choices": [2, 3], "code": ["2 * x", "3 * x"]}},
    }
    raw.update(changes)
    return raw


def test_a_well_formed_parameterized_entry_builds_each_variant() -> None:
    puzzle = _catalog._puzzle("autodiff", _raw())
    assert "return 2 * x" in puzzle.code and puzzle.hints == ("Slope 2.",)
    assert "return 3 * x" in _variants.variant(puzzle, {"k": 3}).code
    _variants.check(puzzle)


def test_an_unknown_placeholder_is_a_catalog_error_naming_it() -> None:
    with pytest.raises(
        CatalogError, match=r"scaled: unknown placeholder \{\{speed\}\}: no parameter 'speed' \(parameters: \['k'\]\)"
    ):
        _catalog._puzzle("autodiff", _raw(why="{{speed}}"))
    with pytest.raises(
        CatalogError, match=r"unknown placeholder \{\{k.tex\}\}: parameter 'k' has no word 'tex' \(words: \['code'\]\)"
    ):
        _catalog._puzzle("autodiff", _raw(why="{{k.tex}}"))


def test_a_choice_that_is_not_valid_python_is_a_catalog_error_naming_the_variant() -> None:
    raw = _raw(params={"k": {"choices": [2, 3], "code": ["2 * x", "3 * * x"]}})
    puzzle = _catalog._puzzle("autodiff", raw)  # the canonical puzzle builds; the variant does not
    with pytest.raises(
        CatalogError, match=r"scaled \(variant k=3\): its code is not valid Python: .* line 2: 'return 3 \* \* x'"
    ):
        _variants.check(puzzle)
    with pytest.raises(CatalogError, match="not valid Python"):
        _variants.variant(puzzle, {"k": 3})


def test_a_variant_whose_f_does_not_return_its_declared_shape_is_a_catalog_error() -> None:
    raw = _raw(params={"k": {"choices": [2, 3], "code": ["2 * x", "3 * x[:2]"]}})
    puzzle = _catalog._puzzle("autodiff", raw)  # builds: the shapes need JAX to check
    with pytest.raises(
        CatalogError, match=r"scaled \(k=3\): f returns shapes \[\(2,\)\], the catalog declares out = \[\(3,\)\]"
    ):
        _variants.check(puzzle)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"k": {"choices": [2]}}, "choices must list two or more strings or numbers; found \\[2\\]"),
        ({"k": {"choices": [2, 2], "code": ["a", "b"]}}, "a choice is listed twice"),
        (
            {"k": {"choices": [2, 3], "code": ["2 * x"]}},
            "word 'code' needs one string or number per choice \\(2\\); found \\['2 \\* x'\\]",
        ),
        ({"k": {"code": ["2 * x"]}}, "parameter 'k' has no choices list"),
        (
            {"k": {"choices": [2, 3], "code": ["2 * x", "3 * x"]}, "j": {"choices": [1, 2]}},
            "parameters \\['j'\\] appear in no placeholder",
        ),
    ],
)
def test_malformed_params_are_catalog_errors(params: dict[str, Any], message: str) -> None:
    with pytest.raises(CatalogError, match=message):
        _catalog._puzzle("autodiff", _raw(params=params))


def test_a_numeric_placeholder_keeps_its_type_in_shapes() -> None:
    raw = _raw(
        params={"n": {"choices": [3, 4]}}, statement="n = {{n}}", hints=["h"], why="w",
        code='def scaled(x: Shaped[Array, "{{n}}"]) -> Shaped[Array, "{{n}}"]:\n    return 2 * x\n',
        out=["{{n}}"], args=[{"name": "x", "shape": ["{{n}}"]}],
    )
    puzzle = _variants.variant(_catalog._puzzle("autodiff", raw), {"n": 4})
    assert puzzle.outs == ((4,),) and puzzle.args[0].shape == (4,)


# --- which variant a student gets -------------------------------------------------------------

# Pinned: a change here reassigns every student's variants in every running class.
# (Worked by hand for alice: sha256(b'jacpuzzles-variant-v1\n["2026-fall","alice","cumsum"]'), its
# first 8 bytes big-endian, modulo the 17 non-canonical variants in product order.)
PINNED = {
    ("2026-fall", "alice", "cumsum"): (("direction", "left"), ("scale", 12)),
    ("2026-fall", "bob", "cumsum"): (("direction", "right"), ("scale", 20)),
    (7, "s123", "conv"): (("w", 5), ("scale", -1)),
    ("2026-fall", "alice", "gather"): (("vocab", 30), ("width", 5)),
}


def test_variants_are_pinned_values_of_seed_student_and_puzzle() -> None:
    for (seed, student, name), expected in PINNED.items():
        assert _variants.choose(seed, student, name) == expected


def test_the_same_inputs_give_the_same_variant_in_another_process() -> None:
    code = (
        "import json\nfrom checker.engine import _variants, _catalog\n"
        "print(json.dumps([_variants.choose(s, st, p.name) for s in (0, 7, 'x') for st in ('alice', 'bob') for p in "
        "_catalog.puzzles()]))"
    )
    here = [_variants.choose(s, st, p.name) for s in (0, 7, "x") for st in ("alice", "bob") for p in _catalog.puzzles()]
    for hashseed in ("1", "12345"):
        env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": hashseed}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
        assert json.loads(out.stdout) == json.loads(json.dumps(here))


def test_a_student_never_gets_the_published_canonical_variant_and_students_spread_out() -> None:
    for puzzle in PARAMETERIZED:
        got = {_variants.choose(1, f"student{i}", puzzle) for i in range(400)}
        assert () not in got
        assert len(got) == len(_variants.choices(puzzle)) - 1, puzzle.name  # 400 students reach every one
    plain = _raw(
        statement="$f(x) = 2 x$.",
        code='def scaled(x: Shaped[Array, "3"]) -> Shaped[Array, "3"]:\n    return 2 * x\n',
        hints=["Slope 2."],
        why="It doubles.",
    )
    del plain["params"]
    assert _variants.choose(1, "alice", _catalog._puzzle("autodiff", plain)) == ()  # a puzzle without parameters


def test_the_seed_and_the_student_both_matter() -> None:
    names = [p.name for p in PARAMETERIZED]
    by_student = [_variants.choose(3, "alice", n) for n in names]
    assert by_student != [_variants.choose(3, "bob", n) for n in names]
    assert by_student != [_variants.choose(4, "alice", n) for n in names]


# --- each variant is a sound puzzle -----------------------------------------------------------


@pytest.mark.parametrize("puzzle", PARAMETERIZED, ids=lambda p: p.name)
def test_every_variant_returns_its_declared_shapes(puzzle: Puzzle) -> None:
    _variants.check(puzzle)


@pytest.mark.parametrize("puzzle", PARAMETERIZED, ids=lambda p: p.name)
def test_every_variant_has_a_reference_answer_with_the_tests(puzzle: Puzzle) -> None:
    for concrete in _variants.variants(puzzle):
        assert not _catalog.PLACEHOLDER.search(_reference_source(concrete))


@pytest.mark.parametrize("puzzle", PARAMETERIZED, ids=lambda p: p.name)
def test_every_variants_stub_fails(puzzle: Puzzle, tmp_path: Path) -> None:
    for concrete in _variants.variants(puzzle):
        path = tmp_path / f"{concrete.name}.py"
        path.write_text(_stubs.stub(concrete))
        early = _runner.precheck(concrete, path)
        assert early is not None and early.problem is not None, concrete.variant
        with pytest.raises(NotImplementedError):
            _load_jac(concrete, _stubs.answer_part(_stubs.stub(concrete)))(*[np.zeros(a.shape) for a in concrete.args])


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PARAMETERIZED, ids=lambda p: p.name)
def test_every_variants_reference_answer_passes_on_seeds_0_to_2_and_is_jacrev(puzzle: Puzzle) -> None:
    import jax

    for concrete in _variants.variants(puzzle):
        jac = _load_jac(concrete, _reference_source(concrete))
        for seed in range(3):  # the seeds a learner's check and the red teams use
            verdict = check_answer(concrete.name, jac, seed=seed, variant=dict(concrete.variant))
            assert verdict.passed, (concrete.variant, seed, verdict.message)
            tf = [o for o in verdict.oracles if o.name.startswith("TensorFlow")]
            if _tf_oracle.covers(concrete) and _tf_oracle.installed_version() is not None:
                assert tf and tf[0].agrees, (concrete.variant, verdict.oracles)  # TF followed the parameters
            else:
                assert not tf, (concrete.variant, verdict.oracles)
        if concrete.is_vjp:
            continue
        f = concrete.on_dynamic(concrete.f)
        for draw in _sampling.draws(concrete, 0)[:8]:
            expected = jax.tree_util.tree_leaves(
                jax.jacrev(f, concrete.dynamic_argnums())(*concrete.dynamic(draw.values))
            )
            got = jax.tree_util.tree_leaves(
                jac(*(a.static if a.static is not None else v for a, v in zip(concrete.args, draw.values)))
            )
            for e, g in zip(expected, got):
                np.testing.assert_allclose(
                    np.asarray(g, dtype=np.float64), np.asarray(e, dtype=np.float64), rtol=1e-5, atol=1e-5
                )


def _fails_elsewhere(puzzle: Puzzle) -> tuple[int, int]:
    """(other variants the canonical reference answer fails on, other variants)."""
    answer = _stubs.answer_part((SOLUTIONS / _stubs.relative_path(puzzle)).read_text())
    failed = 0
    others = _variants.variants(puzzle)[1:]
    for concrete in others:
        try:
            jac = _load_jac(concrete, answer)
        except Exception:  # noqa: BLE001 - the answer's module may raise anything: a failure
            failed += 1
            continue
        failed += not check_answer(concrete.name, jac, variant=dict(concrete.variant)).passed
    return failed, len(others)


@pytest.mark.slow
def test_the_published_answer_fails_on_other_variants_of_most_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    counts = {p.name: _fails_elsewhere(p) for p in PARAMETERIZED}
    somewhere = [n for n, (failed, _) in counts.items() if failed]
    pairs = sum(f for f, _ in counts.values()), sum(t for _, t in counts.values())
    with capsys.disabled():
        print(
            f"\npublished answer fails on another variant: {len(somewhere)}/{len(counts)} puzzles; on "
            f"{pairs[0]}/{pairs[1]} (puzzle, variant) pairs"
        )
        print("passes on every other variant:", sorted(set(counts) - set(somewhere)))
    assert len(somewhere) == len(counts), sorted(set(counts) - set(somewhere))


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PARAMETERIZED, ids=lambda p: p.name)
def test_no_two_variants_of_a_puzzle_have_the_same_expected_derivatives(
    puzzle: Puzzle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two variants that are one function (cos(2x) and cos(-2x) were) let a copied answer pass.
    monkeypatch.setenv("JACPUZZLES_CACHE", str(tmp_path))
    seen: dict[tuple[Any, ...], list[tuple[Any, list[np.ndarray]]]] = {}
    for concrete in _variants.variants(puzzle):
        draws = _sampling.draws(concrete, 0)[:2]
        shapes = tuple(v.shape for d in draws for v in d.values)
        blocks = [np.asarray(b, dtype=np.float64) for per_draw in _oracles.expected(concrete, draws) for b in per_draw]
        for other, theirs in seen.get(shapes, []):
            same = len(theirs) == len(blocks) and all(
                a.shape == b.shape and np.allclose(a, b, atol=1e-6) for a, b in zip(theirs, blocks)
            )
            assert not same, f"{puzzle.name}: variants {other} and {concrete.variant} have the same derivatives"
        seen.setdefault(shapes, []).append((concrete.variant, blocks))


# --- expected Jacobians are cached per variant ------------------------------------------------


def test_two_variants_of_a_puzzle_never_share_a_cached_expected_jacobian(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JACPUZZLES_CACHE", str(tmp_path))
    left, right = _variants.variant("cumsum"), _variants.variant("cumsum", {"direction": "right"})
    draws = _sampling.draws(left, 0)
    assert [d.values for d in draws][0][0].tobytes() == _sampling.draws(right, 0)[0].values[0].tobytes()  # same draws
    assert _oracles._key(left, draws) != _oracles._key(right, draws)
    first = _oracles.expected(left, draws)
    second = _oracles.expected(right, draws)
    assert len(list(tmp_path.glob("cumsum-*.npz"))) == 2
    assert not np.allclose(first[0][0], second[0][0])
    # And read back from the cache, each its own.
    assert np.array_equal(_oracles.expected(right, draws)[0][0], second[0][0])
    assert np.array_equal(_oracles.expected(left, draws)[0][0], first[0][0])


def test_the_canonical_puzzles_cache_key_is_unchanged_by_variants() -> None:
    puzzle = _catalog.puzzle_named("cumsum")
    draws = _sampling.draws(puzzle, 0)
    plain = copy.copy(puzzle)
    assert _oracles._key(puzzle, draws) == _oracles._key(plain, draws)


def test_a_variant_is_checked_against_its_own_f(tmp_path: Path) -> None:
    right = _variants.variant("cumsum", {"direction": "right"})
    jac_left = _load_jac(
        _catalog.puzzle_named("cumsum"),
        "Is = np.arange(10)\nOs = np.arange(10)[:, None]\ndef jac(x):\n    return (Is <= Os) / 20\n",
    )
    assert check_answer("cumsum", jac_left).passed
    verdict = check_answer("cumsum", jac_left, variant={"direction": "right"})
    assert not verdict.passed
    jac_right = _load_jac(
        right, "Is = np.arange(10)\nOs = np.arange(10)[:, None]\ndef jac(x):\n    return (Is >= Os) / 20\n"
    )
    assert check_answer("cumsum", jac_right, variant={"direction": "right"}).passed


# --- TensorFlow references follow the parameters, or the catalog says why not ------------------


def test_an_indexing_variant_has_a_tf_reference_or_a_reason() -> None:
    for puzzle in (p for p in PARAMETERIZED if p.chapter == "indexing"):
        others = _variants.variants(puzzle)[1:]
        for concrete in others:
            assert _tf_oracle.covers(concrete) == (not puzzle.no_tf), concrete.name
        # The recording is the canonical puzzle's: no variant uses it (the first, middle and
        # last, whose draws differ most; drawing every variant's inputs costs seconds).
        for concrete in {others[0], others[len(others) // 2], others[-1]}:
            assert _tf_oracle._recorded(concrete, _sampling.draws(concrete, 0)) is None, _variants.label(concrete)
