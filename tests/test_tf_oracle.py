"""The TensorFlow oracle: live when TF is installed, recorded otherwise, and always cross-checked
against JAX. `.ci/run` installs the `tf` extra, so the live tests run on every CI run."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from checker import Kind, Status, _catalog, _oracles, _tf_oracle, check_answer
from checker._judge import judge
from checker._sampling import draws
from tests.conftest import REPO

COVERED = [p for p in _catalog.puzzles() if _tf_oracle.covers(p)]


def _recorded(puzzle: _catalog.Puzzle) -> _tf_oracle.TFResult:
    info = _tf_oracle.recording_info()
    assert info is not None
    return _tf_oracle.TFResult("recorded", _tf_oracle._recorded(puzzle, len(draws(puzzle, info["seed"]))))


def test_the_recording_states_its_tensorflow_version_and_covers_every_indexing_puzzle() -> None:
    info = _tf_oracle.recording_info()
    assert info is not None, f"no recording: run `{_tf_oracle.RECORD_COMMAND}` with TensorFlow installed"
    assert info["tensorflow"][0].isdigit() and info["made_by"] == _tf_oracle.RECORD_COMMAND
    assert sorted(info["puzzles"]) == sorted(p.name for p in COVERED)
    stale = [p.name for p in COVERED if info["puzzles"][p.name] != _tf_oracle.digest(draws(p, info["seed"]))]
    assert not stale, f"the recording is of other draws for {stale}: run `{_tf_oracle.RECORD_COMMAND}`"


@pytest.mark.parametrize("puzzle", COVERED, ids=lambda p: p.name)
def test_recorded_tensorflow_agrees_with_jax_on_every_draw(puzzle: _catalog.Puzzle) -> None:
    batch = draws(puzzle, 0)
    _tf_oracle.cross_check(puzzle, batch, _oracles.expected(puzzle, batch), _recorded(puzzle))


@pytest.mark.slow
def test_live_tensorflow_reproduces_the_recording_exactly(tmp_path: Path) -> None:
    pytest.importorskip("tensorflow")
    (tmp_path / "checker" / "_data").mkdir(parents=True)
    npz, info = _tf_oracle.record(tmp_path, 0)
    fresh, committed = json.loads(info.read_text()), _tf_oracle.recording_info()
    assert committed is not None and fresh["puzzles"] == committed["puzzles"]
    with np.load(npz) as new, np.load(_tf_oracle.RECORDING) as old:
        assert sorted(new.files) == sorted(old.files)
        differ = [key for key in new.files if not np.array_equal(new[key], old[key])]
    assert not differ, f"live TensorFlow differs from the recording on {differ}: run `{_tf_oracle.RECORD_COMMAND}`"


def _solution(name: str):  # type: ignore[no-untyped-def]
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"_solution_{name}", REPO / "solutions" / "indexing" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_without_tensorflow_seed_0_uses_the_recording_and_other_seeds_say_why_not(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(_tf_oracle, "installed_version", lambda: None)
    jac = _solution("linear_lookup").jac
    recorded = check_answer("linear_lookup", jac, seed=0)
    assert recorded.status is Status.PASS
    assert [c.agrees for c in recorded.oracles] == [True, True]
    assert recorded.oracles[1].name.endswith("GradientTape.jacobian (recorded)")
    other = check_answer("linear_lookup", jac, seed=1)
    assert other.status is Status.PASS
    assert other.oracles[1].agrees is None
    assert "recording covers seed 0's draws only" in other.oracles[1].note


def test_an_answer_only_one_oracle_accepts_fails_naming_the_one_that_disagrees() -> None:
    puzzle = _catalog.puzzle_named("naive_lookup")
    batch = draws(puzzle, 0)
    expected = _oracles.expected(puzzle, batch)
    other = [tuple(b + 1.0 for b in blocks) for blocks in expected]
    verdict = judge(puzzle, batch, expected, tuple(expected), 0, [("TensorFlow (test)", other, "")])
    assert verdict.status is Status.FAIL
    assert verdict.message.startswith("agrees with jax.jacfwd but not with TensorFlow (test): ")
    assert [(c.name, c.agrees) for c in verdict.oracles] == [("jax.jacfwd", True), ("TensorFlow (test)", False)]


def test_tensorflow_disagreeing_with_jax_is_a_kit_bug(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    real = _tf_oracle.expected

    def off_by_one(puzzle, batch):  # type: ignore[no-untyped-def]
        result = real(puzzle, batch)
        assert result.blocks is not None
        return dataclasses.replace(result, blocks=[tuple(b + 1 for b in blocks) for blocks in result.blocks])

    monkeypatch.setattr(_tf_oracle, "expected", off_by_one)
    verdict = check_answer("naive_lookup", _solution("naive_lookup").jac)
    assert verdict.status is Status.ERROR and verdict.kinds() == (Kind.KIT_BUG,)
    assert "jax.jacfwd and TensorFlow" in verdict.message and "bug in jacpuzzles" in verdict.message
