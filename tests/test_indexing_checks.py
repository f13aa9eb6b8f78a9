"""The machinery the indexing chapter needs: integer and static arguments, index edge draws,
guards, backward-pass (`vjp`) puzzles, and the wording of what the checker says about them."""

from __future__ import annotations

import numpy as np
import pytest

from checker import Kind, Status, check_answer, check_file
from checker.authoring import _generate
from checker.engine import _catalog
from checker.engine._domain import GUARD_GAP
from checker.engine._sampling import draws


def _puzzle(name: str) -> _catalog.Puzzle:
    return _catalog.puzzle_named(name)


def _by_label(name: str) -> dict[str, tuple[np.ndarray, ...]]:
    return {d.label: d.values for d in draws(_puzzle(name), 0)}


def test_the_indexing_chapter_follows_autodiff() -> None:
    assert [ch.name for ch in _catalog.chapters()] == ["autodiff", "indexing", "layers"]


def test_integer_and_static_arguments_get_no_jacobian() -> None:
    assign = _puzzle("assign_index")
    assert [a.name for a in assign.wrt] == ["arr", "element"]
    assert assign.argnums == (0, 2)
    bandwidthify = _puzzle("bandwidthify")
    assert bandwidthify.args[1].static == 5
    assert "bandwidth: int" in bandwidthify.jac_signature()
    assert "index: Int[Array" in assign.jac_signature()


@pytest.mark.parametrize("name", ["naive_lookup", "linear_lookup", "bandwidthify", "residual_lookup"])
def test_a_scalar_index_meets_every_integer_and_every_half_in_its_domain(name: str) -> None:
    # A mistake at one integer only (a clip that hides it at the ends; floor(x + 0.5) wrong at
    # 0.5 and 2.5 but not at 1.5) must be met on every seed, not on the lucky ones.
    puzzle = _puzzle(name)
    k = next(i for i, a in enumerate(puzzle.args) if "integer" in a.edge_names)
    index = puzzle.args[k]
    for seed in (0, 1):
        batch = draws(puzzle, seed)
        whole = sorted(float(d.values[k]) for d in batch if d.label.startswith("integer draw"))
        halves = sorted(float(d.values[k]) for d in batch if d.label.startswith("half-integer draw"))
        assert whole == list(np.arange(np.ceil(index.low), np.floor(index.high) + 1))
        assert halves == list(np.arange(np.floor(index.low), np.ceil(index.high)) + 0.5)


def test_each_entry_of_an_index_vector_meets_every_integer() -> None:
    puzzle = _puzzle("bulk_bandwidthify")
    rows = np.stack([d.values[0] for d in draws(puzzle, 0) if d.label.startswith("integer draw")])
    for entry in rows.T:
        assert sorted(entry.tolist()) == list(np.arange(-1.0, 6.0))


def test_simplex_arguments_are_probability_vectors_and_have_a_one_hot_edge() -> None:
    for d in draws(_puzzle("tensor_write_2d"), 0):
        for value in d.values[2:]:
            assert np.all(value >= 0) and np.isclose(value.sum(), 1.0, atol=1e-5)
    one_hot = _by_label("tensor_write_2d")["one-hot (x_index)"]
    assert sorted(one_hot[2].tolist()) == [0.0, 0.0, 1.0]


def test_the_gather_backward_pass_meets_an_all_repeated_index_batch() -> None:
    idx = _by_label("gather_vjp")["repeated (idx)"][1]
    assert idx.dtype == np.int32 and len(np.unique(idx)) == 1


def test_guards_keep_the_winning_cell_and_the_nearest_value_unambiguous() -> None:
    for d in draws(_puzzle("tensor_lookup_2d"), 0):
        arr, x, y = (v.astype(np.float64) for v in d.values)
        masked = np.sort((x[:, None, None] * y[None, :, None] * arr).reshape(-1, arr.shape[-1]), axis=0)
        assert np.all(masked[-1] - masked[-2] >= GUARD_GAP * np.abs(masked).max())
    for d in draws(_puzzle("asymmetrical_vectored_lookup"), 0):
        v, k, g = (a.astype(np.float64) for a in d.values)
        picked = v[np.arange(2), np.argmax(k, axis=-1)]
        distance = np.sort((v - (picked - g)[:, None]) ** 2, axis=-1)
        assert np.all(distance[:, 1] - distance[:, 0] >= GUARD_GAP * distance.max())


def test_a_custom_gradient_puzzle_is_a_backward_pass_and_its_f_a_custom_vjp() -> None:
    import jax

    puzzle = _puzzle("asymmetrical_vectored_lookup")
    assert puzzle.is_vjp and puzzle.answer_name == "vjp"
    assert puzzle.jac_signature().startswith("def vjp(v: ")
    assert isinstance(puzzle.f, jax.custom_vjp)
    with pytest.raises(TypeError, match="custom_vjp"):
        jax.jacfwd(puzzle.f)(np.eye(2, 3, dtype=np.float32), np.eye(2, 3, dtype=np.float32))


GATHER_ADD = "import jax.numpy as np\ndef vjp(embeddings, idx, g):\n    return np.zeros((27, 4)).at[idx].add(g)\n"


def test_a_scatter_add_backward_pass_passes(answer) -> None:  # type: ignore[no-untyped-def]
    verdict = check_file("gather_vjp", answer("gather_vjp", GATHER_ADD))
    assert verdict.status is Status.PASS, verdict.message


def test_overwriting_instead_of_accumulating_is_named(answer) -> None:  # type: ignore[no-untyped-def]
    body = GATHER_ADD.replace(".add(g)", ".set(g)")
    verdict = check_file("gather_vjp", answer("gather_vjp", body))
    assert verdict.status is Status.FAIL
    assert verdict.kinds()[0] is Kind.REPEATED
    assert "names more than once" in verdict.message and ".at[...].add" in verdict.message


def test_a_backward_pass_returning_the_jacobian_is_told_to_contract_it(answer) -> None:  # type: ignore[no-untyped-def]
    body = "import jax.numpy as np\ndef vjp(embeddings, idx, g):\n    return np.zeros((8, 3, 4, 27, 4))\n"
    verdict = check_file("gather_vjp", answer("gather_vjp", body))
    assert verdict.kinds() == (Kind.GRADIENT,)
    assert verdict.message.startswith(
        "d_embeddings: got shape (8, 3, 4, 27, 4), expected (27, 4): that is the whole Jacobian"
    )


def test_a_file_with_jac_for_a_backward_pass_puzzle_is_told_what_to_define(answer) -> None:  # type: ignore[no-untyped-def]
    body = "def jac(embeddings, idx, g):\n    return 0\n"
    verdict = check_file("gather_vjp", answer("gather_vjp", body))
    assert verdict.kinds() == (Kind.MISSING,)
    assert "defines no function `vjp`: add `def vjp(embeddings: " in verdict.message


def test_cells_of_a_cotangent_are_named_by_the_arguments_index() -> None:
    def vjp(v, k, g):  # type: ignore[no-untyped-def]
        return g[:, None] * k, np.abs(g)[:, None] * np.ones((2, 3))  # forgot the -1 at the target

    verdict = check_answer("asymmetrical_vectored_lookup", vjp)
    assert verdict.status is Status.FAIL
    assert verdict.failure is not None and verdict.failure.block == "dk"
    assert "is wrong on" in verdict.message and "dk[0, " in verdict.message


def test_the_static_size_reaches_the_answer_as_a_python_int() -> None:
    seen = []

    def jac(index, bandwidth):  # type: ignore[no-untyped-def]
        seen.append(type(bandwidth))
        return np.zeros(bandwidth)

    check_answer("bandwidthify", jac)
    assert seen and set(seen) == {int}


def test_blocks_in_the_wrong_order_are_named(answer) -> None:  # type: ignore[no-untyped-def]
    body = "import jax.numpy as np\ndef jac(arr, index):\n    return np.zeros(()), np.zeros(5)\n"
    verdict = check_file("naive_lookup", answer("naive_lookup", body))
    assert verdict.status is Status.FAIL and verdict.kinds() == (Kind.STRUCTURE,)
    assert "expected shapes [(5,), ()] but in the order [(), (5,)]" in verdict.message
    assert "in f's argument order (arr, index)" in verdict.message


def test_a_block_for_an_integer_argument_is_told_it_gets_none(answer) -> None:  # type: ignore[no-untyped-def]
    body = "import jax.numpy as np\ndef jac(vector, index, target):\n    return np.eye(4), np.zeros(4), np.zeros(4)\n"
    verdict = check_file("scatter_update", answer("scatter_update", body))
    assert verdict.kinds() == (Kind.STRUCTURE,)
    assert "but index is an integer and gets no Jacobian: return 2 Jacobians, for vector, target" in verdict.message


def test_generating_a_header_keeps_an_answer_written_without_the_marker(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from checker.engine import _stubs

    puzzle = _puzzle("gather")
    path = tmp_path / "solutions" / "indexing" / "gather.py"
    path.parent.mkdir(parents=True)
    path.write_text("def jac(embeddings, idx):\n    return 1\n")
    _generate.generate(tmp_path)
    assert path.read_text() == _stubs.header(puzzle) + _stubs.MARKER + "\ndef jac(embeddings, idx):\n    return 1\n"


def test_rounding_half_up_is_named_at_the_half_integer_draw(answer) -> None:  # type: ignore[no-untyped-def]
    body = (
        "import jax.numpy as np\n"
        "def jac(arr, index):\n"
        "    return (np.arange(5) == np.floor(index + 0.5)).astype(np.float32), np.zeros(())\n"
    )
    verdict = check_file("naive_lookup", answer("naive_lookup", body))
    assert verdict.status is Status.FAIL and verdict.kinds()[0] is Kind.HALF_INTEGER
    assert "f rounds half to even" in verdict.message
    assert verdict.failure is not None and verdict.failure.draw_label.startswith("half-integer draw")


def test_ignoring_the_zero_derivative_at_integers_is_named(answer) -> None:  # type: ignore[no-untyped-def]
    body = (
        "import jax.numpy as np\n"
        "def jac(arr, index):\n"
        "    lo = np.floor(index).astype(int)\n"
        "    t = index - lo\n"
        "    hi = np.minimum(lo + 1, 4)\n"
        "    d_arr = (1 - t) * (np.arange(5) == lo) + t * (np.arange(5) == hi)\n"
        "    return d_arr, arr[hi] - arr[lo]\n"
    )
    verdict = check_file("linear_lookup_corrected", answer("linear_lookup_corrected", body))
    assert verdict.status is Status.FAIL and verdict.kinds()[0] is Kind.INTEGER_INDEX
    assert "floor == ceil" in verdict.message
