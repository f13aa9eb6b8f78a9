"""The catalog is the single source of truth: names, sizes, shapes, and the files made from it."""

from __future__ import annotations

import dataclasses

import jax
import numpy as np
import pytest

from checker import Status, check_file
from checker.authoring import _generate
from checker.engine import _catalog, _sampling, _stubs
from checker.engine._catalog import CatalogError
from tests.conftest import PUZZLES, REPO

# The autodiff chapter, matching the original Autodiff Puzzles: name -> (argument shapes, output shape).
AUTODIFF = {
    "id": ([(1,)], (1,)),
    "cos": ([(1,)], (1,)),
    "mean": ([(10,)], (1,)),
    "prod": ([(10,)], (1,)),
    "repeat": ([(1,)], (10,)),
    "repeat_scale": ([(1,)], (10,)),
    "neg": ([(10,)], (10,)),
    "relu": ([(10,)], (10,)),
    "index": ([(25,)], (15,)),
    "cumsum": ([(10,)], (10,)),
    "running_mean": ([(10,)], (8,)),
    "sort": ([(10,)], (10,)),
    "emean": ([(10,), (10,)], (10,)),
    "mul": ([(10,), (10,)], (10,)),
    "conv": ([(10,), (5,)], (6,)),
    "view": ([(4, 4)], (4, 4)),
    "reshape": ([(4, 4)], (16,)),
    "transpose": ([(4, 4)], (4, 4)),
    "broadcast": ([(4, 4), (4,)], (4, 4)),
    "mean_reduce": ([(4, 4)], (4,)),
    "matmul": ([(4,), (4,)], (4,)),
    "conv2d": ([(16,), (4,)], (16,)),
}


def test_autodiff_chapter_has_the_22_puzzles_in_order_with_their_sizes() -> None:
    chapter = _catalog.chapters()[0]
    assert chapter.name == "autodiff"
    assert [p.name for p in chapter.puzzles] == list(AUTODIFF)
    for p in chapter.puzzles:
        shapes, out = AUTODIFF[p.name]
        assert [a.shape for a in p.args] == shapes, p.name
        assert p.outs == (out,), p.name


@pytest.mark.parametrize("puzzle", _catalog.puzzles(), ids=lambda p: p.name)
def test_declared_output_shape_is_what_f_returns(puzzle: _catalog.Puzzle) -> None:
    specs = [jax.ShapeDtypeStruct(a.shape, np.dtype(a.dtype)) for a in puzzle.f_args if a.static is None]
    result = jax.eval_shape(puzzle.on_dynamic(puzzle.f), *specs)
    shapes = [r.shape for r in result] if isinstance(result, tuple) else [result.shape]
    assert tuple(shapes) == puzzle.outs


@pytest.mark.parametrize("puzzle", _catalog.puzzles(), ids=lambda p: p.name)
def test_every_puzzle_has_statement_hints_and_points(puzzle: _catalog.Puzzle) -> None:
    assert puzzle.statement and puzzle.title
    assert len(puzzle.hints) >= 2
    assert 1 <= puzzle.points <= 4


def test_specific_statements_state_the_maths_correctly() -> None:
    # numpy's convolve flips the kernel; the statement must say so.
    assert "y_{4-k}" in _catalog.get("conv").statement  # type: ignore[union-attr]
    assert "x_0 \\cdot o / N" in _catalog.get("repeat_scale").statement  # type: ignore[union-attr]


def test_committed_stubs_docs_and_solution_headers_match_the_catalog() -> None:
    assert _generate.drift(REPO) == []


def test_drift_is_detected(tmp_path) -> None:  # type: ignore[no-untyped-def]
    _generate.generate(tmp_path)
    assert _generate.drift(tmp_path) == []
    stub = tmp_path / "puzzles" / "autodiff" / "cumsum.py"
    stub.write_text(stub.read_text().replace("/ 20", "/ 10"))
    (tmp_path / "solutions" / "autodiff" / "neg.py").unlink()
    problems = _generate.drift(tmp_path)
    assert any("cumsum.py: differs" in p for p in problems)
    assert any("neg.py: missing" in p for p in problems)


@pytest.mark.parametrize("puzzle", _catalog.puzzles(), ids=lambda p: p.name)
def test_every_committed_stub_is_todo(puzzle: _catalog.Puzzle) -> None:
    verdict = check_file(puzzle.name, PUZZLES / _stubs.relative_path(puzzle))
    assert verdict.status is Status.TODO


def test_a_stub_with_only_whitespace_changes_still_raises_not_implemented_and_is_todo(answer) -> None:  # type: ignore[no-untyped-def]
    text = _stubs.stub(_catalog.get("neg")) + "\n\n# my notes\n"  # type: ignore[arg-type]
    verdict = check_file("neg", answer("neg", text))
    assert verdict.status is Status.TODO
    assert "NotImplementedError" in verdict.message


def test_stub_signature_uses_jaxtyping_with_output_axes_first() -> None:
    assert _catalog.get("emean").jac_signature() == (  # type: ignore[union-attr]
        'def jac(x: Shaped[Array, "10"], y: Shaped[Array, "10"]) -> '
        'tuple[Shaped[Array, "10 10"], Shaped[Array, "10 10"]]:'
    )
    assert _catalog.get("reshape").jac_annotation() == 'Shaped[Array, "16 4 4"]'  # type: ignore[union-attr]


def test_a_malformed_entry_is_a_catalog_error_naming_the_entry() -> None:
    with pytest.raises(CatalogError, match="cumsum.*avoid"):
        _catalog._arg("autodiff.toml: cumsum", {"name": "x", "shape": [3], "avoid": ["poles"]})
    with pytest.raises(CatalogError, match="missing field 'code'"):
        _catalog._puzzle("autodiff", {"name": "p", "title": "t", "points": 1, "statement": "s"})


@pytest.mark.parametrize("field", ["intervals", "one_entry_in"])
@pytest.mark.parametrize("intervals", [[[5.4, 4.8]], [[1.0]], [5.0], [["a", "b"]]])
def test_an_interval_that_is_not_low_below_high_is_a_catalog_error(field: str, intervals: list[object]) -> None:
    with pytest.raises(CatalogError, match=f"gelu: argument x: {field} .* pairs"):
        _catalog._arg("layers.toml: gelu", {"name": "x", "shape": [6], field: intervals})


def test_declared_intervals_are_drawn_with_every_entry_inside() -> None:
    gelu = _catalog.get("gelu")
    assert gelu is not None and gelu.args[0].intervals[:2] == ((4.8, 5.4), (5.25, 5.4))
    for low, high in gelu.args[0].intervals:
        inside = [d for d in _sampling.draws(gelu, 0) if f"every entry between {low:g} and {high:g}" in d.label]
        assert len(inside) == _sampling.REGION_DRAWS
        assert all(np.all((low <= d.values[0]) & (d.values[0] <= high)) for d in inside)


def test_one_entry_in_an_interval_is_drawn_with_the_others_as_drawn() -> None:
    gelu = _catalog.get("gelu")
    assert gelu is not None and gelu.args[0].one_entry_in == ((-6.6, -5.9), (-6.66, -6.5), (-6.66, -6.58))
    for low, high in gelu.args[0].one_entry_in:
        label = f"one entry between {low:g} and {high:g}, the others as drawn"
        alone = [d for d in _sampling.draws(gelu, 0) if label in d.label]
        assert len(alone) == _sampling.REGION_DRAWS
        for draw in alone:
            inside = (low <= draw.values[0]) & (draw.values[0] <= high)
            # The others in the domain, where the slope is of ordinary size: the block's scale.
            assert inside.sum() == 1 and np.all(np.abs(draw.values[0][~inside]) <= 4.0), draw.values[0]


def test_declared_ranges_put_every_entry_on_one_of_two_levels_that_far_apart() -> None:
    softmax = _catalog.get("softmax")
    assert softmax is not None
    for temp in (2, 0.5):
        puzzle = _catalog.render(softmax, {"temp": temp})
        assert puzzle.args[0].ranges == tuple(k * 1e-7 * temp for k in (1, 1.25, 1.6, 2.5, 4))
        for width in puzzle.args[0].ranges:
            drawn = [d for d in _sampling.draws(puzzle, 0)
                     if f"entries at two levels {width:g} apart, at half the domain's edge" in d.label]
            assert len(drawn) == _sampling.RANGE_DRAWS
            for draw in drawn:
                x = np.asarray(draw.values[0], np.float64)
                assert np.ptp(x) == pytest.approx(width, rel=1e-6) and 1.5 <= np.min(np.abs(x)) <= 3.0
                assert set(np.round((x - x.min()) / width).tolist()) == {0.0, 1.0}, x
    with pytest.raises(CatalogError, match="ranges .* between 0 and 1e-3 of the domain's width"):
        _catalog._arg("layers.toml: softmax", {"name": "x", "shape": [5], "ranges": [0.5]})


def test_cancelling_spreads_and_a_zeroed_row_at_aligned_leads_are_validated_and_drawn() -> None:
    with pytest.raises(CatalogError, match=r"cancelling_spreads .* from 0 \(all equal\) to below 1e-3"):
        _catalog._arg("layers.toml: attention", {"name": "v", "shape": [3, 2], "cancelling_spreads": [0.5]})
    with pytest.raises(CatalogError, match=r"spreads .* from above 0 to below 1e-3"):  # plain spreads exclude 0
        _catalog._arg("layers.toml: softmax", {"name": "x", "shape": [5], "spreads": [0.0]})
    equal = [d for d in _sampling.draws(_catalog.puzzle_named("attention"), 0) if "k: every entry equal" in d.label]
    assert equal and all(np.all(d.values[1] == d.values[1].reshape(-1)[0]) and d.atol for d in equal)
    attention = _catalog.get("attention")
    assert attention is not None
    q, k, v = attention.args
    for zeroed, ok in (("v", True), ("k", False), ("w", False), ("q", False)):
        bad = dataclasses.replace(attention, args=(dataclasses.replace(q, aligned_leads_zero=zeroed), k, v))
        if ok:
            _catalog._validate_aligned("layers.toml: attention", bad, bad.args[0])
        else:
            with pytest.raises(CatalogError, match="aligned_leads_zero names a third float argument"):
                _catalog._validate_aligned("layers.toml: attention", bad, bad.args[0])
    leading = [d for d in _sampling.draws(attention, 0) if "one ahead" in d.label]
    assert len(leading) == len(q.aligned_leads) * _sampling.RANGE_DRAWS
    for draw in leading:
        axis = int(np.flatnonzero(draw.values[0][0])[0])  # q's rows lie along it
        top = int(np.argmax(draw.values[1][:, axis]))  # k's leading entry on it
        assert np.all(draw.values[2][top] == 0) and np.count_nonzero(np.all(draw.values[2] == 0, axis=1)) == 1, draw


def test_a_catalog_is_read_from_its_parsed_mirror_only_when_made_from_its_bytes(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import json

    (tmp_path / "autodiff.toml").write_text('title = "from the TOML"\n')
    monkeypatch.setattr(_catalog, "_DATA", tmp_path)
    assert _catalog._kit_raw("autodiff") == {"title": "from the TOML"}  # no mirror
    (tmp_path / "autodiff.toml.json").write_text(_catalog.mirror_text("autodiff"))
    mirror = json.loads((tmp_path / "autodiff.toml.json").read_text())
    mirror["catalog"]["title"] = "from the mirror"
    (tmp_path / "autodiff.toml.json").write_text(json.dumps(mirror))
    assert _catalog._kit_raw("autodiff") == {"title": "from the mirror"}  # the digest matches: read
    (tmp_path / "autodiff.toml").write_text('title = "edited"\n')
    assert _catalog._kit_raw("autodiff") == {"title": "edited"}  # stale: the TOML is parsed
    (tmp_path / "autodiff.toml.json").write_text("{not json")
    assert _catalog._kit_raw("autodiff") == {"title": "edited"}


def test_list_show_and_hint_start_without_importing_jax() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from checker.cli._cli import main\n"
        "for argv in (['list'], ['show', 'conv'], ['hint', 'id', '--dir', 'nowhere']): main(argv)\n"
        "print('jax' in sys.modules, 'jaxtyping' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False False"
