"""`--assignment FILE` and `--shard K/N`: the file's checks and messages, the precedence of
flags over the file, and the stability of the split."""

from __future__ import annotations

from pathlib import Path

import pytest

from checker import puzzles
from checker.engine._assignment import Assignment, BadSetup, default, load, resolve
from checker.engine._settings import DEFAULT_SEED, DEFAULT_TIMEOUT
from checker.grading._shard import Shard, parse, shard_of
from tests.conftest import REPO

POINTS = {p.name: p.points for p in puzzles()}


def _load(tmp_path: Path, text: str) -> Assignment:
    path = tmp_path / "assignment.toml"
    path.write_text(text)
    return load(path)


def test_the_template_is_a_valid_assignment() -> None:
    template = load(REPO / "docs" / "templates" / "assignment.toml")
    assert template.points() and all(POINTS.get(n) is not None for n in template.points())


def test_puzzles_come_in_catalog_order_with_points_or_the_catalogs(tmp_path: Path) -> None:
    a = _load(
        tmp_path, "seed = 7\ntimeout = 3\nmemory_mb = 512\njobs = 4\n\n[puzzles]\nneg = 5\ncumsum = true\nrelu = 0\n"
    )
    assert a.points() == {"cumsum": POINTS["cumsum"], "neg": 5, "relu": 0}
    assert (a.seed, a.timeout, a.memory_mb, a.jobs) == (7, 3.0, 512, 4)


def test_variants_roster_and_digest(tmp_path: Path) -> None:
    text = "seed = 7\nvariants = true\n[puzzles]\ncumsum = 3\nneg = true\n[students]\n\"ada-l\" = \"s1\"\n"
    a = _load(tmp_path, text)
    assert a.variants and a.student_id("ada-l") == "s1" and a.student_id("bob") == "bob"
    assert a.choices("s1") == a.choices("s1") and set(a.choices("s1")) == {"cumsum", "neg"}
    assert all(a.choices("s1")[name] for name in ("cumsum", "neg"))  # never the canonical variant
    assert len(a.digest) == 16 and _load(tmp_path, text.replace("seed = 7", "seed = 8")).digest != a.digest
    assert _load(tmp_path, "seed = 7\n").choices("s1") == {}  # variants off: every puzzle canonical


def test_without_a_puzzles_table_the_whole_catalog_counts(tmp_path: Path) -> None:
    assert _load(tmp_path, "seed = 1\n").points() == POINTS == default().points()


def test_flags_given_win_over_the_file_which_wins_over_the_defaults(tmp_path: Path) -> None:
    a = _load(tmp_path, "seed = 7\ntimeout = 3\n")
    assert resolve(a, jobs=None, timeout=None, memory_mb=None, seed=None) == resolve(
        a, jobs=2, timeout=None, memory_mb=1024, seed=None
    )
    got = resolve(a, jobs=None, timeout=9.0, memory_mb=None, seed=None)
    assert (got.jobs, got.timeout, got.memory_mb, got.seed) == (2, 9.0, 1024, 7)
    plain = resolve(default(), jobs=None, timeout=None, memory_mb=None, seed=None)
    assert (plain.timeout, plain.seed) == (DEFAULT_TIMEOUT, DEFAULT_SEED)
    assert resolve(a, jobs=None, timeout=None, memory_mb=None, seed=0).seed == 0  # 0 given is given


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[puzzles]\ncumsun = 2\n", "[puzzles]: no puzzle named 'cumsun'; did you mean cumsum"),
        (
            "[puzzles]\ncumsum = -1\n",
            "cumsum must be a whole number of points, 0 or more (or true for the catalog's 2), found -1",
        ),
        ("[puzzles]\ncumsum = 1.5\n", "found 1.5"),
        ('[puzzles]\ncumsum = "2"\n', "found a string ('2')"),
        ("[puzzles]\ncumsum = false\n", "to leave a puzzle out, delete its line"),
        ("[puzzles]\n", "[puzzles] is empty"),
        ('puzzles = ["cumsum"]\n', "puzzles must be a table"),
        ('seed = "abc"\n', "seed must be a whole number, 0 or more, found a string ('abc')"),
        ("seed = -3\n", "seed must be a whole number, 0 or more, found -3"),
        ("timeout = 0\n", "timeout must be a number of seconds above 0, found an integer (0)"),
        ("timeout = true\n", "timeout must be a number of seconds above 0, found a boolean (True)"),
        ("memory_mb = 1.5\n", "memory_mb must be a whole number of megabytes"),
        ("jobs = 0\n", "jobs must be a whole number, 1 or more, found 0"),
        (
            "timout = 3\n",
            "unknown key 'timout' (did you mean 'timeout'?); the keys are seed, timeout, memory_mb, jobs, variants, "
            "packs, puzzles, students",
        ),
        ("variants = true\n", "variants = true needs a seed"),
        ('seed = 1\nvariants = "yes"\n', "variants must be true or false, found a string ('yes')"),
        ("[students]\nada = 7\n", "[students] 'ada' must be a student id (a non-empty string), found an integer (7)"),
        ('[students]\nada = "s1"\nbob = "s1"\n', "[students] 'bob' and 'ada' have the same id 's1'"),
        ('students = ["ada"]\n', "students must be a table"),
        ("seed = 1\nseed = 2\n", "is not valid TOML: Cannot overwrite a value (at line 2, column 9)"),
        (
            "[puzzles\ncumsum = 2\n",
            "is not valid TOML: Expected ']' at the end of a table declaration (at line 1, column 9)",
        ),
    ],
)
def test_every_mistake_in_the_file_says_what_and_where(tmp_path: Path, text: str, expected: str) -> None:
    with pytest.raises(BadSetup) as caught:
        _load(tmp_path, text)
    assert expected in str(caught.value)
    assert str(caught.value).startswith(f"assignment {tmp_path / 'assignment.toml'}")


def test_an_unreadable_or_binary_file_is_a_bad_setup(tmp_path: Path) -> None:
    with pytest.raises(BadSetup, match="cannot read the assignment .*: No such file or directory"):
        load(tmp_path / "nope.toml")
    (tmp_path / "bin.toml").write_bytes(b"seed = 1\n\xff\xfe")
    with pytest.raises(BadSetup, match="is not UTF-8 text"):
        load(tmp_path / "bin.toml")


def test_a_shard_depends_only_on_the_name() -> None:
    names = [f"student{k:03d}" for k in range(300)]
    split = {n: shard_of(n, 4) for n in names}
    assert set(split.values()) == {1, 2, 3, 4} and all(40 < list(split.values()).count(k) < 110 for k in range(1, 5))
    assert shard_of("alice", 3) == 3  # pinned: CI matrices of earlier runs keep their split
    assert Shard(3, 3).holds("alice") and not Shard(1, 3).holds("alice")
    assert all(shard_of(n, 1) == 1 for n in names)


@pytest.mark.parametrize("text, expected", [("2/5", Shard(2, 5)), (" 1 / 1 ", Shard(1, 1))])
def test_shard_parses(text: str, expected: Shard) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("0/3", "K must be between 1 and N"),
        ("4/3", "K must be between 1 and N"),
        ("2", "is not K/N"),
        ("a/b", "is not K/N"),
        ("1/0", "N at least 1"),
    ],
)
def test_a_bad_shard_says_how_to_write_it(text: str, expected: str) -> None:
    with pytest.raises(ValueError, match=expected):
        parse(text)
