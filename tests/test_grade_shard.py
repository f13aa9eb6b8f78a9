"""`--assignment`, `--shard K/N` and `--merge` end to end: shards' entries merged into one folder
give the class-wide files of one unsharded run, byte for byte, by either documented command."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from checker.grading._shard import shard_of
from tests._grading import environ, run_grade
from tests.conftest import SOLUTIONS

CLASS_WIDE = ("grades.csv", "junit.xml", "summary.md", "summary.json")
ASSIGNMENT = "seed = 5\ntimeout = 2\n\n[puzzles]\ncumsum = 3\nneg = true\n"
LIMITS = ("--memory-mb", "1024", "--jobs", "2")


def grade(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return run_grade(*args, wait=300, env=environ(COLUMNS="200"))


def _answer(sub: Path, name: str, text: str | None = None) -> None:
    (sub / "autodiff").mkdir(parents=True, exist_ok=True)
    (sub / "autodiff" / f"{name}.py").write_text(
        text if text is not None else (SOLUTIONS / "autodiff" / f"{name}.py").read_text()
    )


def build_class(root: Path) -> Path:
    subs = root / "subs"
    for name in ("ada", "bo", "cy", "dee", "eve"):
        _answer(subs / name, "neg")
        _answer(subs / name, "cumsum")
        _answer(subs / name, "relu")  # not in the assignment: never run, never reported
    _answer(
        subs / "bo", "cumsum", (SOLUTIONS / "autodiff" / "cumsum.py").read_text().replace("(Is <= Os)", "(Is >= Os)")
    )
    _answer(
        subs / "cy",
        "cumsum",
        (SOLUTIONS / "autodiff" / "cumsum.py")
        .read_text()
        .replace("return (Is <= Os) / 20", "return jax.jacfwd(cumsum)(x)"),
    )
    _answer(subs / "eve", "relu", "while True:\n    pass\n")
    with zipfile.ZipFile(subs / "zed.zip", "w") as archive:
        archive.writestr("../cumsum.py", "x = 1\n")
    return subs


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("shards")
    subs = build_class(root)
    (root / "hw.toml").write_text(ASSIGNMENT)
    # One key for every shard, the unsharded run and the merge: each entry is signed with it.
    hw = ("--assignment", root / "hw.toml", "--key-file", root / "class.key")
    whole = grade(subs, "--out", root / "whole", *hw, *LIMITS)
    shards = [grade(subs, "--out", root / f"shard{k}", *hw, *LIMITS, "--shard", f"{k}/2") for k in (1, 2)]
    return {"root": root, "subs": subs, "hw": hw, "whole": whole, "shards": shards}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_the_assignment_chooses_puzzles_points_and_seed(runs: dict[str, Any]) -> None:
    assert runs["whole"].returncode == 0, runs["whole"].stderr[-2000:]
    out = runs["root"] / "whole"
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text())))
    assert list(rows[0]) == ["submission", "score", "max_score", "neg", "cumsum", "status", "reason"]  # catalog order
    by_name = {r["submission"]: r for r in rows}
    assert by_name["ada"]["score"] == "4" and by_name["ada"]["max_score"] == "4" and by_name["ada"]["cumsum"] == "3"
    assert by_name["bo"]["score"] == "1" and by_name["zed"]["status"] == "ungradable"
    ada = json.loads((out / "ada.json").read_text())
    assert [r["puzzle"] for r in ada["results"]] == ["neg", "cumsum"] and all(
        "seed" not in r for r in ada["results"]
    )  # the staff's secret
    bo = json.loads((out / "bo.json").read_text())
    assert _seed_of(next(r for r in bo["results"] if r["puzzle"] == "cumsum")) == 5
    assert "relu" not in (out / "ada.txt").read_text() and "relu" not in (out / "summary.md").read_text()


def test_an_answer_using_autodiff_is_refused_unrun_and_the_others_graded(runs: dict[str, Any]) -> None:
    cy = json.loads((runs["root"] / "whole" / "cy.json").read_text())
    cumsum, neg = (next(r for r in cy["results"] if r["puzzle"] == n) for n in ("cumsum", "neg"))
    assert cumsum["status"] == "error" and cumsum["diagnoses"][0]["kind"] == "forbidden"
    assert cumsum["message"].startswith(
        "autodiff/cumsum.py uses jax.jacfwd (line 26): answers must compute the Jacobian by hand"
    )
    assert neg["status"] == "pass" and cy["score"] == 1


def test_shards_split_the_class_by_name(runs: dict[str, Any]) -> None:
    names = {"ada", "bo", "cy", "dee", "eve", "zed"}
    entries = []
    for k, result in zip((1, 2), runs["shards"]):
        assert result.returncode == 0, result.stderr[-2000:]
        got = {p.stem for p in (runs["root"] / f"shard{k}").glob("*.json")} - {"summary"}
        assert got == {n for n in names if shard_of(n, 2) == k}
        assert f"shard {k}/2: {len(got)} of the 6 submissions" in result.stderr
        entries.append(got)
    assert entries[0] and entries[1] and entries[0] | entries[1] == names


def test_merge_writes_the_files_of_one_unsharded_run(runs: dict[str, Any]) -> None:
    merged = runs["root"] / "merged"
    merged.mkdir()
    for k in (1, 2):  # everything, a shard's own class-wide files included: the merge rewrites them
        for path in (runs["root"] / f"shard{k}").iterdir():
            shutil.copy(path, merged / path.name)
    result = grade("--merge", "--out", merged, *runs["hw"])
    assert result.returncode == 0, result.stderr
    assert "merged 6 submissions" in result.stdout
    whole = _files(runs["root"] / "whole")
    assert {n: b for n, b in _files(merged).items() if n in CLASS_WIDE} == {n: whole[n] for n in CLASS_WIDE}
    assert _files(merged) == whole  # the entries too


def test_regrading_into_the_merged_entries_grades_nothing_and_writes_the_same_files(runs: dict[str, Any]) -> None:
    merged = runs["root"] / "regraded"
    merged.mkdir()
    for k in (1, 2):
        for path in (runs["root"] / f"shard{k}").iterdir():
            if path.stem != "summary" and path.suffix in (".json", ".txt"):
                shutil.copy(path, merged / path.name)
    result = grade(runs["subs"], "--out", merged, *runs["hw"], *LIMITS)
    assert result.returncode == 0, result.stderr
    assert "graded 0 submissions, 6 unchanged" in result.stdout
    assert _files(merged) == _files(runs["root"] / "whole")


def test_merge_refuses_an_entry_the_shards_key_did_not_sign(runs: dict[str, Any], tmp_path: Path) -> None:
    merged = tmp_path / "merged"
    merged.mkdir()
    for k in (1, 2):
        for path in (runs["root"] / f"shard{k}").iterdir():
            if path.stem != "summary" and path.suffix in (".json", ".txt"):
                shutil.copy(path, merged / path.name)
    entry = json.loads((merged / "bo.json").read_text())
    (merged / "bo.json").write_text(json.dumps({**entry, "score": entry["max_score"]}))  # bo's fail made a pass
    result = grade("--merge", "--out", merged, *runs["hw"])
    assert result.returncode == 2
    assert "1 entry in" in result.stderr and "bo.json (its signature does not check with the key" in result.stderr
    assert not (merged / "grades.csv").exists()
    (merged / "bo.json").write_text(json.dumps(entry))
    other = grade("--merge", "--out", merged, "--assignment", runs["hw"][1], "--key-file", tmp_path / "made-up.key")
    assert other.returncode == 2 and "no signing key at" in other.stderr
    (tmp_path / "made-up.key").write_text("f" * 64)
    other = grade("--merge", "--out", merged, "--assignment", runs["hw"][1], "--key-file", tmp_path / "made-up.key")
    assert other.returncode == 2 and "6 entries in" in other.stderr
    assert grade("--merge", "--out", merged, *runs["hw"]).returncode == 0


def test_a_flag_given_wins_over_the_assignment(runs: dict[str, Any], tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    _answer(
        subs / "ada", "cumsum", (SOLUTIONS / "autodiff" / "cumsum.py").read_text().replace("(Is <= Os)", "(Is >= Os)")
    )
    result = grade(subs, "--out", tmp_path / "out", *runs["hw"], *LIMITS, "--seed", "3")
    assert result.returncode == 0, result.stderr
    ada = json.loads((tmp_path / "out" / "ada.json").read_text())
    assert _seed_of(next(r for r in ada["results"] if r["puzzle"] == "cumsum")) == 3


def _seed_of(result: dict[str, Any]) -> int:
    """The seed whose draws hold the input that exposed a failure (the documents do not name it)."""
    import numpy as np

    from checker.engine._catalog import puzzle_named
    from checker.engine._sampling import draws

    x = np.asarray(result["draw"]["x"])
    return next(
        seed
        for seed in range(10)
        if any(np.array_equal(d.values[0], x) for d in draws(puzzle_named(result["puzzle"]), seed))
    )


@pytest.mark.parametrize("case, expected", [
    ("merge_with_submissions", "--merge takes no SUBMISSIONS"),
    ("merge_other_assignment", "not on the 58 of this assignment: pass the --assignment the shards were graded with"),
    ("merge_without_key", "no signing key at"),
    ("merge_empty", "no submission entries"),
    ("bad_shard", "--shard '3' is not K/N"),
    ("shard_out_of_range", "K must be between 1 and N"),
    ("bad_assignment", "unknown key 'seeds' (did you mean 'seed'?)"),
    ("missing_assignment", "cannot read the assignment"),
    ("no_submissions", "grade needs SUBMISSIONS"),
])
def test_bad_grading_arguments_exit_2_with_one_line(
    runs: dict[str, Any], tmp_path: Path, case: str, expected: str
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("seeds = 1\n")
    (tmp_path / "empty").mkdir()
    args: tuple[str | Path, ...] = {
        "merge_with_submissions": (runs["subs"], "--merge", "--out", runs["root"] / "shard1"),
        "merge_other_assignment": (
            "--merge",
            "--out",
            runs["root"] / "shard1",
            "--key-file",
            runs["root"] / "class.key",
        ),
        "merge_without_key": ("--merge", "--out", runs["root"] / "shard1"),
        "merge_empty": ("--merge", "--out", tmp_path / "empty"),
        "bad_shard": (runs["subs"], "--out", tmp_path / "o", "--shard", "3"),
        "shard_out_of_range": (runs["subs"], "--out", tmp_path / "o", "--shard", "3/2"),
        "bad_assignment": (runs["subs"], "--out", tmp_path / "o", "--assignment", bad),
        "missing_assignment": (runs["subs"], "--out", tmp_path / "o", "--assignment", tmp_path / "nope.toml"),
        "no_submissions": ("--out", tmp_path / "o"),
    }[case]
    result = grade(*args)
    assert result.returncode == 2
    assert expected in result.stderr and "Traceback" not in result.stderr
