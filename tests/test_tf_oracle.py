"""The TensorFlow oracle: live when TF is installed, recorded otherwise, and always cross-checked
against JAX. `.ci/run` installs the `tf` extra, so the live tests run on every CI run."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from checker import Kind, Status, check_answer
from checker.engine import _catalog, _oracles, _tf_oracle
from checker.engine._judge import judge
from checker.engine._sampling import Draw, draws
from tests.conftest import REPO

COVERED = [p for p in _catalog.puzzles() if _tf_oracle.covers(p)]


def _recorded(puzzle: _catalog.Puzzle) -> _tf_oracle.TFResult:
    info = _tf_oracle.recording_info()
    assert info is not None
    blocks = _tf_oracle._recorded(puzzle, draws(puzzle, info["seed"]))
    assert blocks is not None, f"the recording of {puzzle.name} is of other draws"
    return _tf_oracle.TFResult("recorded", blocks)


def test_the_recording_states_its_tensorflow_version_and_covers_todays_draws_of_every_indexing_puzzle() -> None:
    info = _tf_oracle.recording_info()
    assert info is not None, f"no recording: run `{_tf_oracle.RECORD_COMMAND}` with TensorFlow installed"
    assert info["tensorflow"][0].isdigit() and info["made_by"] == _tf_oracle.RECORD_COMMAND
    assert info["seed"] == 0
    assert sorted(info["draws"]) == sorted(p.name for p in COVERED)
    stale = _tf_oracle.stale()
    assert not stale, f"the recording is of other draws for {stale}: run `{_tf_oracle.RECORD_COMMAND}`"


def _nudged(batch: tuple[Draw, ...], ulps: int) -> tuple[Draw, ...]:
    """`batch` with every float entry moved `ulps` steps towards +inf, as another numpy's `exp`
    might give it."""
    def nudge(v: np.ndarray) -> np.ndarray:
        if not np.issubdtype(v.dtype, np.floating):
            return v
        for _ in range(ulps):
            v = np.nextafter(v, np.inf)
        return v

    return tuple(Draw(d.label, tuple(nudge(np.asarray(v)) for v in d.values)) for d in batch)


@pytest.mark.parametrize("name", ["linear_lookup"])
def test_the_recording_is_used_on_draws_a_few_ulps_away_and_not_on_other_draws(name: str, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(_tf_oracle, "installed_version", lambda: None)
    puzzle = _catalog.puzzle_named(name)
    batch = draws(puzzle, 0)
    near = _tf_oracle.expected(puzzle, _nudged(batch, 2))
    assert near.blocks is not None and near.label.endswith("(recorded)")
    _tf_oracle.cross_check(puzzle, batch, _oracles.expected(puzzle, batch), near)
    far = _tf_oracle.expected(puzzle, _nudged(batch, 10_000))
    assert far.blocks is None and "covers seed 0's draws only" in far.note
    assert _tf_oracle.expected(puzzle, draws(puzzle, 1)).blocks is None


def test_a_stale_recording_is_named_by_dev_check(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    with np.load(_tf_oracle.RECORDING) as saved:
        arrays = {key: saved[key] for key in saved.files}
    arrays["gather.x0"] = (
        arrays["gather.x0"] + 1.0 if arrays["gather.x0"].dtype.kind == "f" else arrays["gather.x0"] ^ 1
    )
    np.savez(tmp_path / "tf_recorded.npz", **arrays)
    monkeypatch.setattr(_tf_oracle, "RECORDING", tmp_path / "tf_recorded.npz")
    assert _tf_oracle.stale() == ["gather"]
    from checker.cli import _cli

    assert _cli.main(["dev", "check", "--root", str(REPO)]) == 1


def test_the_advice_for_live_tensorflow_fits_a_checkout() -> None:
    assert _tf_oracle.install_advice() == 'run `python3 -m pip install -e ".[tf]"` in the repository for a live check'


@pytest.mark.parametrize("puzzle", COVERED, ids=lambda p: p.name)
def test_recorded_tensorflow_agrees_with_jax_on_every_draw(puzzle: _catalog.Puzzle) -> None:
    batch = draws(puzzle, 0)
    _tf_oracle.cross_check(puzzle, batch, _oracles.expected(puzzle, batch), _recorded(puzzle))


@pytest.mark.slow
def test_live_tensorflow_reproduces_the_recording(tmp_path: Path) -> None:
    pytest.importorskip("tensorflow")
    (tmp_path / "checker" / "_data").mkdir(parents=True)
    npz, info = _tf_oracle.record(tmp_path, 0)
    fresh, committed = json.loads(info.read_text()), _tf_oracle.recording_info()
    assert committed is not None and fresh["draws"] == committed["draws"]
    with np.load(npz) as new, np.load(_tf_oracle.RECORDING) as old:
        assert sorted(new.files) == sorted(old.files)
        # Inputs within a few ulps (another processor's exp), TF's values within the judge's tolerance.
        differ = [
            key for key in new.files if not np.allclose(new[key], old[key], rtol=1e-12, atol=1e-12, equal_nan=True)
        ]
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
    other = [tuple(np.asarray(b + 1.0) for b in blocks) for blocks in expected]  # arrays, as an oracle's are
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


def test_near_the_bottom_of_float64_the_oracles_agree_to_the_draws_floor() -> None:
    # TensorFlow keeps subnormals that XLA flushes: a difference below the floor of such a draw
    # is no disagreement, and one above it is.
    from checker.engine._numerics import pinned

    puzzle = _catalog.puzzle_named("tensor_lookup_2d_corrected")
    batch = draws(puzzle, 0)
    bottom = [d for d, draw in enumerate(batch) if draw.floor]
    assert bottom
    with pinned():
        jax_blocks = _oracles.expected(puzzle, batch)
    recorded = _recorded(puzzle)
    assert recorded.blocks is not None

    def moved(by: float, where: list[int]) -> _tf_oracle.TFResult:
        assert recorded.blocks is not None
        return _tf_oracle.TFResult("recorded", [tuple(b + by for b in blocks) if d in where else blocks
                                                for d, blocks in enumerate(recorded.blocks)])

    floor = batch[bottom[0]].floor
    _tf_oracle.cross_check(puzzle, batch, jax_blocks, moved(0.5 * floor, bottom))  # within the floor
    with pytest.raises(_oracles.OracleDisagreement):
        _tf_oracle.cross_check(puzzle, batch, jax_blocks, moved(2 * floor, bottom))
    tiny = next(d for d, draw in enumerate(batch) if "every entry 1e-300 to 3e-300" in draw.label)
    with pytest.raises(_oracles.OracleDisagreement):  # elsewhere there is no floor: 7e-307 is 7e-7 of arr
        _tf_oracle.cross_check(puzzle, batch, jax_blocks, moved(0.5 * floor, [tiny]))
