"""The red team's answers, pinned: written without reading the sampler, aimed at learners' mistakes.

Every file under tests/redteam/<puzzle>/ starts with `# expect: fail` or `# expect: pass` and a
`# mistake:` line. A `fail` file carries a WITNESS, an input where it is provably wrong
(tests/redteam/verify.py checks it against `jax.jacrev` in float64, independently of the checker's
draws), and the checker must fail it on every seed. A `pass` file is right (verify.py checks it on
random points) and must pass on every seed.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from checker import Status, check_file

REDTEAM = Path(__file__).resolve().parent / "redteam"
FILES = sorted(p for p in REDTEAM.glob("*/*.py"))
FAST_SEEDS = (0,)
SLOW_SEEDS = range(1, 6)


def _verify() -> ModuleType:
    spec = importlib.util.spec_from_file_location("redteam_verify", REDTEAM / "verify.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _expect(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first in ("# expect: fail", "# expect: pass"), f"{path}: first line {first!r}"
    return first.split()[-1]


def test_the_red_team_wrote_at_least_fifty_wrong_answers_in_both_chapters() -> None:
    wrong = [p for p in FILES if _expect(p) == "fail"]
    chapters = {p.parent.name for p in wrong}
    assert len(wrong) >= 50
    assert {"prod", "relu", "sort"} <= chapters and {"linear_lookup", "tensor_write_2d"} <= chapters


@pytest.mark.slow  # every file's witness against jax.jacrev, 200 random points for the right ones
def test_every_wrong_answer_is_wrong_at_its_witness_and_every_right_one_right() -> None:
    rows, ok = _verify().verify(FILES, 200)
    assert ok, "\n".join(
        " | ".join(map(str, row)) for row in rows if "wrong at witness" not in row[2] and "right at" not in row[2]
    )


def _check(path: Path, seeds: range | tuple[int, ...]) -> None:
    expect = _expect(path)
    statuses = {seed: check_file(path.parent.name, path, seed=seed).status for seed in seeds}
    if expect == "fail":
        passed = [seed for seed, status in statuses.items() if status is Status.PASS]
        assert not passed, f"{path.relative_to(REDTEAM)} is wrong but passes on seeds {passed}"
    else:
        failed = {seed: status.value for seed, status in statuses.items() if status is not Status.PASS}
        assert not failed, f"{path.relative_to(REDTEAM)} is right but gets {failed}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REDTEAM).with_suffix("")))
def test_red_team_answer_on_the_default_seed(path: Path) -> None:
    _check(path, FAST_SEEDS)


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REDTEAM).with_suffix("")))
def test_red_team_answer_on_five_more_seeds(path: Path) -> None:
    _check(path, SLOW_SEEDS)
