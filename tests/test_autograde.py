"""CI autograding front-ends, through the command line and pytest in subprocesses: GitHub
Classroom's base64 `result`, Gradescope's results.json, the pytest plugin (its JUnit parsed back,
inert without its flag, blind to a conftest.py among the answers), `--fail-under`, and the
messages for a bad setup.

The answers are four puzzles only (cumsum and neg right, relu wrong, id raising) to stay fast;
every other puzzle of the catalog is `todo`.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from checker import puzzles
from checker.engine._assignment import BadSetup
from checker.frontends import _autograde
from checker.grading._gradebook import ungradable
from checker.grading._sandbox import Limits
from tests.conftest import REPO, SOLUTIONS

POINTS = {p.name: p.points for p in puzzles()}
RIGHT = ("cumsum", "neg")
EARNED = sum(POINTS[n] for n in RIGHT)
MARKER = "# ---- your answer: everything below this line is yours to edit ----"
LIMITS = ("--timeout", "5")


def _answers(folder: Path) -> Path:
    """cumsum and neg from the solutions; relu with the mask forgotten (wrong for negative x); id
    raising."""
    (folder / "autodiff").mkdir(parents=True)
    for name in RIGHT:
        shutil.copy(SOLUTIONS / "autodiff" / f"{name}.py", folder / "autodiff" / f"{name}.py")
    head = (SOLUTIONS / "autodiff" / "relu.py").read_text().split(MARKER)[0]
    body = "\nIs = np.arange(10)\nOs = np.arange(10)[:, None]\n\n\ndef jac(x):\n    return 1.0 * (Is == Os)\n"
    (folder / "autodiff" / "relu.py").write_text(head + MARKER + body)
    (folder / "autodiff" / "id.py").write_text("def jac(x):\n    raise ValueError('oops')\n")
    return folder


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, cwd=cwd, stdin=subprocess.DEVNULL, timeout=300,
        env={**os.environ, "COLUMNS": "200", "PYTHONPATH": str(REPO), **env},  # this checkout, wherever the run starts
    )


def jacpuzzles(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return _run(["-m", "checker", "grade", *args], cwd, **env)


# ---- GitHub Classroom ----


@pytest.fixture(scope="session")
def classroom(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A checked-out repository graded with --github-classroom, as the workflow step runs it."""
    root = tmp_path_factory.mktemp("classroom")
    repo = _answers(root / "student-repo")
    output = root / "github_output"
    output.write_text("earlier=kept\n")  # a step's output file may already hold lines: append
    # As in an Actions log: not a terminal, no COLUMNS (an empty one is ignored), GITHUB_ACTIONS set.
    result = jacpuzzles(
        "--github-classroom", *LIMITS, cwd=repo, GITHUB_OUTPUT=str(output), GITHUB_ACTIONS="true", COLUMNS=""
    )
    return {"result": result, "output": output}


def _decoded(output: Path) -> dict[str, Any]:
    lines = output.read_text().splitlines()
    assert lines[0] == "earlier=kept" and len(lines) == 2
    key, _, value = lines[1].partition("=")
    assert key == "result"
    doc: dict[str, Any] = json.loads(base64.b64decode(value, validate=True))
    return doc


def test_classroom_result_is_the_reporters_format_field_by_field(classroom: dict[str, Any]) -> None:
    result = classroom["result"]
    assert result.returncode == 0, result.stderr
    doc = _decoded(classroom["output"])
    assert set(doc) == {"version", "status", "max_score", "tests"}
    assert doc["version"] == 1 and doc["status"] == "fail" and doc["max_score"] == sum(POINTS.values())
    assert [t["name"] for t in doc["tests"]] == list(POINTS)  # one test per puzzle, catalog order
    for test in doc["tests"]:
        assert set(test) == {"name", "status", "score", "message", "test_code", "filename", "line_no"}
        assert test["line_no"] == 0  # else the reporter prints " - line N" after the name
        assert test["test_code"] == f"jacpuzzles check {test['name']}"
    tests = {t["name"]: t for t in doc["tests"]}
    for name in RIGHT:
        assert tests[name]["status"] == "pass" and tests[name]["score"] == POINTS[name]
        assert tests[name]["filename"] == f"autodiff/{name}.py"
    relu = tests["relu"]
    assert relu["status"] == "fail" and relu["score"] == 0
    assert relu["message"].startswith("relu: FAIL, 0/1 point\n- ")
    assert "jacpuzzles check relu" in relu["message"] and "(seed" not in relu["message"]
    assert tests["prod"]["status"] == "fail" and "no answer file prod.py" in tests["prod"]["message"]
    assert tests["id"]["status"] == "error" and tests["id"]["message"].startswith(
        "id: ERROR, 0/1 point\n- jac raised ValueError: oops"
    )
    assert sum(t["score"] for t in doc["tests"]) == EARNED  # what the reporter posts to Classroom


def test_classroom_prints_the_report_and_says_where_the_result_went(classroom: dict[str, Any]) -> None:
    out = classroom["result"].stdout
    assert f"student-repo: {EARNED}/{sum(POINTS.values())} points" in out
    assert "✘ relu: FAIL" in out
    assert f"wrote the Classroom result ({EARNED}/{sum(POINTS.values())} points) to $GITHUB_OUTPUT" in out


def test_classroom_prints_the_report_inside_stopped_workflow_commands(classroom: dict[str, Any]) -> None:
    """What an answer printed is no workflow command to the runner: the report is inside
    `::stop-commands::TOKEN` ... `::TOKEN::` (a token drawn for the run), the kit's closing line after."""
    lines = classroom["result"].stdout.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("::stop-commands::"))
    token = lines[start].removeprefix("::stop-commands::")
    assert len(token) == 32 and int(token, 16) >= 0
    end = lines.index(f"::{token}::")
    assert any("✘ relu: FAIL" in line for line in lines[start:end])
    assert lines[end + 1].startswith("wrote the Classroom result")


def test_classroom_log_shows_the_report_unwrapped(classroom: dict[str, Any]) -> None:
    # rich alone would wrap at 80 columns in a log; the report is laid out 100 columns wide.
    lines = classroom["result"].stdout.splitlines()
    assert "  * marks an entry of yours that is wrong; rows: output index, columns: input index" in lines
    # The draw shown has entries on both sides of relu's kink: both heatmaps on one line each row,
    # the expected 0 where yours is a wrong 1 (marked) for a negative entry, 1 for a positive one.
    grid = [line for line in lines if re.match(r"  \d (?:[·1] ){9}[·1] +\d ", line)]
    assert len(grid) == 10
    wrong = [line for line in grid if "1*" in line]
    assert wrong and len(wrong) < 10
    for line in wrong:
        row = int(line.split()[0])
        expected, yours = line[4:23], line.split(f" {row} ", 2)[-1]
        assert expected.split()[row] == "·" and yours.split()[row].startswith("1*")
    assert max(map(len, lines)) > 80


def test_an_ungradable_repository_posts_no_points_to_classroom() -> None:
    doc = _autograde.classroom_result(ungradable("repo", "", "the worker could not start", POINTS))
    assert doc["status"] == "error" and doc["max_score"] == 0  # the reporter posts nothing, fails the job
    (test,) = doc["tests"]
    assert test["status"] == "error" and test["score"] == 0 and test["line_no"] == 0
    assert test["message"].startswith(
        "NOT GRADED: the grader could not grade this repository: the worker could not start."
    )


def test_a_result_too_large_for_an_environment_variable_keeps_first_lines() -> None:
    doc = {
        "version": 1,
        "status": "fail",
        "max_score": 1,
        "tests": [
            {"name": f"t{k}", "status": "fail", "score": 0, "message": "first line\n" + "x" * 3000} for k in range(60)
        ],
    }
    encoded = _autograde.encode_classroom(doc)
    assert len(encoded) <= _autograde.CLASSROOM_RESULT_CAP
    assert {t["message"] for t in json.loads(base64.b64decode(encoded))["tests"]} == {"first line"}


# ---- Gradescope ----


@pytest.fixture(scope="session")
def gradescope(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("gradescope")
    _answers(root / "autograder" / "submission")
    result = jacpuzzles("--gradescope", "--gradescope-root", str(root / "autograder"), *LIMITS, cwd=root)
    return {"result": result, "root": root / "autograder"}


def test_gradescope_results_json_in_gradescopes_format(gradescope: dict[str, Any]) -> None:
    assert gradescope["result"].returncode == 0, gradescope["result"].stderr
    doc = json.loads((gradescope["root"] / "results" / "results.json").read_text())
    assert doc["score"] == EARNED
    assert (
        doc["output"]
        == f"{EARNED}/{sum(POINTS.values())} points. Puzzles: 2 pass, 1 fail, 1 error, {len(POINTS) - 4} todo."
    )
    assert (doc["output_format"], doc["test_output_format"], doc["test_name_format"]) == ("text", "text", "text")
    assert doc["visibility"] == "visible" and doc["stdout_visibility"] == "hidden"
    assert isinstance(doc["execution_time"], int) and doc["execution_time"] >= 1
    assert [t["name"] for t in doc["tests"]] == list(POINTS)
    tests = {t["name"]: t for t in doc["tests"]}
    assert sum(t["score"] for t in doc["tests"]) == doc["score"]
    assert sum(t["max_score"] for t in doc["tests"]) == sum(POINTS.values())
    assert tests["neg"]["status"] == "passed" and tests["neg"]["score"] == tests["neg"]["max_score"] == POINTS["neg"]
    relu = tests["relu"]
    assert relu["status"] == "failed" and relu["score"] == 0 and relu["max_score"] == POINTS["relu"]
    assert relu["output"].startswith("relu: FAIL, 0/1 point\n- ") and relu["output_format"] == "text"
    assert relu["extra_data"]["jacpuzzles_status"] == "fail" and relu["extra_data"]["diagnoses"]
    assert tests["prod"]["status"] == "failed" and tests["prod"]["extra_data"]["jacpuzzles_status"] == "todo"
    assert tests["id"]["status"] == "failed" and tests["id"]["extra_data"]["jacpuzzles_status"] == "error"


def _lookup_table(seed: int) -> str:
    """A relu answer with no derivative in it: the Jacobian at each input the grader draws on
    `seed`, looked up by the input's bytes, 0 elsewhere. What a student can hand in after
    collecting a secret seed's inputs from feedback (red team RT30)."""
    from checker.engine import _sampling, _variants

    table = {d.values[0].tobytes().hex(): [float(v > 0) for v in d.values[0]]
             for d in _sampling.draws(_variants.variant("relu"), seed)}
    head = (SOLUTIONS / "autodiff" / "relu.py").read_text().split(MARKER)[0]
    body = (f"\nimport numpy as onp\n\nTABLE = {table!r}\n\n\ndef jac(x):\n"
            "    return onp.diag(onp.array(TABLE.get(onp.asarray(x).tobytes().hex(), [0.0] * 10)))\n")
    return head + MARKER + body


def test_a_secret_seed_draws_each_submission_afresh_so_a_table_of_its_inputs_fails(tmp_path: Path) -> None:
    # Graded by a class run on the plain seed, the table passes: the known limit of a seed whose
    # feedback students see (docs/grading.md). A CI front-end mixes the seed with the answer
    # files' digest, so the inputs a student collected are not the ones their next files meet.
    seed, assignment = 7, tmp_path / "assignment.toml"
    assignment.write_text(f'seed = {seed}\ntimeout = 5\n[puzzles]\nrelu = 1\n')
    (tmp_path / "class" / "mallory" / "autodiff").mkdir(parents=True)
    (tmp_path / "class" / "mallory" / "autodiff" / "relu.py").write_text(_lookup_table(seed))
    graded = jacpuzzles(str(tmp_path / "class"), "--out", str(tmp_path / "out"), "--assignment", str(assignment),
                        cwd=tmp_path)
    assert graded.returncode == 0, graded.stderr
    assert json.loads((tmp_path / "out" / "mallory.json").read_text())["results"][0]["status"] == "pass"
    root = tmp_path / "autograder"
    shutil.copytree(tmp_path / "class" / "mallory", root / "submission")
    scores = []
    for _ in range(2):  # the same files, the same draws: the same grade on a re-run
        result = jacpuzzles("--gradescope", "--gradescope-root", str(root), "--assignment", str(assignment),
                            cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        doc = json.loads((root / "results" / "results.json").read_text())
        scores.append((doc["score"], doc["tests"][0]["output"]))
    assert scores[0] == scores[1] and scores[0][0] == 0, scores
    assert "the Jacobian is all zeros" in scores[0][1], scores[0][1]
    right = root / "submission" / "autodiff" / "relu.py"
    shutil.copy(SOLUTIONS / "autodiff" / "relu.py", right)
    result = jacpuzzles("--gradescope", "--gradescope-root", str(root), "--assignment", str(assignment), cwd=tmp_path)
    assert json.loads((root / "results" / "results.json").read_text())["score"] == 1, result.stdout


def test_the_pytest_plugin_draws_afresh_under_a_secret_seed(tmp_path: Path) -> None:
    # Red team RT31: under `--jacpuzzles-seed`, a table of the seed's inputs passed.
    (tmp_path / "answers" / "autodiff").mkdir(parents=True)
    (tmp_path / "answers" / "autodiff" / "relu.py").write_text(_lookup_table(7))
    assignment = tmp_path / "a.toml"
    assignment.write_text("timeout = 5\n[puzzles]\nrelu = 1\n")
    result = _run(["-m", "pytest", "--jacpuzzles", "--jacpuzzles-dir", str(tmp_path / "answers"),
                   "--jacpuzzles-assignment", str(assignment), "--jacpuzzles-seed", "7", "-p", "no:cacheprovider",
                   "-q"], tmp_path)
    assert result.returncode == 1 and "1 failed" in result.stdout, result.stdout[-3000:] + result.stderr[-2000:]


def test_fresh_draws_change_with_any_pack_text_the_worker_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    # Red team RT31: a table in a comment of the repository's pack.toml reached the worker while
    # the answer files, and so the draws, stayed the same.
    from checker.engine import _catalog
    from checker.grading import _grade
    from checker.grading._submissions import Answers

    answers = Answers(root=Path("."), files={}, missing={}, digest="d" * 64)
    seeds = set()
    for text in ("", "[chapter]\n# a comment\n", "[chapter]\n# another comment\n"):
        monkeypatch.setattr(_catalog, "packs", lambda text=text: [(Path("packs/course"), text)] if text else [])
        seeds.add(_grade.submission_seed(7, _grade._drawn_for(answers)))
    assert len(seeds) == 3


def test_an_ungradable_gradescope_submission_gets_no_results_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "submission").mkdir()
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "results.json").write_text('{"score": 7}')  # stale: must not be read as this run's
    monkeypatch.setattr(
        _autograde, "grade_one", lambda *a, **k: ungradable("submission", "", "the worker could not start", POINTS)
    )
    out = Console(file=__import__("io").StringIO(), width=300)
    code = _autograde.gradescope(tmp_path, Limits(5, 1024), 0, None, out, out)
    assert code == _autograde.UNGRADABLE == 3
    assert not (tmp_path / "results" / "results.json").exists()
    assert "NOT GRADED: the worker could not start. No results.json was written" in out.file.getvalue()  # type: ignore[attr-defined]
    assert _autograde.gradescope_results(ungradable("s", "", "why", POINTS), 1.0) is None


def test_a_submission_refused_whole_for_its_content_is_a_graded_0_not_an_autograder_error(tmp_path: Path) -> None:
    # Red team RT32: an empty folder 40 deep made the run "not graded" (exit 3, no results.json),
    # which Gradescope shows as an autograder error: a student could choose it over a 0.
    deep = tmp_path / "autograder" / "submission"
    for _ in range(40):
        deep = deep / "d"
    deep.mkdir(parents=True)
    result = jacpuzzles("--gradescope", "--gradescope-root", str(tmp_path / "autograder"), *LIMITS, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    doc = json.loads((tmp_path / "autograder" / "results" / "results.json").read_text())
    assert doc["score"] == 0 and len(doc["tests"]) == len(POINTS)
    for test in doc["tests"]:
        assert test["score"] == 0 and test["extra_data"]["jacpuzzles_status"] == "error"
        assert "no answer of this submission was run: folders are nested more than 32 deep" in test["output"]


# ---- --fail-under ----


def test_fail_under_gives_exit_code_1_only_below_the_threshold(tmp_path: Path) -> None:
    subs = tmp_path / "submissions"
    _answers(subs / "alice")
    below = jacpuzzles(
        str(subs), "--out", str(tmp_path / "out"), *LIMITS, "--fail-under", str(EARNED + 1), cwd=tmp_path
    )
    assert below.returncode == 1, below.stderr
    assert f"1 of 1 submission below --fail-under {EARNED + 1} or ungradable: alice" in below.stdout
    at = jacpuzzles(str(subs), "--out", str(tmp_path / "out"), *LIMITS, "--fail-under", str(EARNED), cwd=tmp_path)
    assert at.returncode == 0 and "graded 0 submissions, 1 unchanged" in at.stdout  # the journal: no re-grading


# ---- the pytest plugin ----

PLUGIN_TIMEOUT = 2  # seconds per test (pytest-timeout): grading the answers takes longer


def _plugin(answers: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`pytest --jacpuzzles --jacpuzzles-dir ANSWERS -p no:cacheprovider ARGS`, on this run's cache."""
    return _run(
        ["-m", "pytest", "--jacpuzzles", "--jacpuzzles-dir", str(answers), "-p", "no:cacheprovider", *args], cwd,
        JACPUZZLES_CACHE=os.environ["JACPUZZLES_CACHE"],
    )


@pytest.fixture(scope="session")
def plugin_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """`pytest --jacpuzzles` on answers holding a conftest.py that would leave a marker."""
    root = tmp_path_factory.mktemp("plugin")
    answers = _answers(root / "answers")
    marker = root / "conftest-ran"
    (answers / "conftest.py").write_text(f"open({str(marker)!r}, 'w').close()\nraise SystemExit('conftest imported')\n")
    (answers / "autodiff" / "test_student.py").write_text(f"open({str(marker)!r}, 'w').close()\n")
    junit = root / "report.xml"
    # pytest-timeout's limit per test, far below what grading takes: grading must not count in any test's time.
    result = _plugin(
        answers, f"--junitxml={junit}", "-q", "-rA", "--timeout", str(PLUGIN_TIMEOUT), "--durations=0",
        "--durations-min=0", cwd=root,
    )
    return {"result": result, "junit": junit, "marker": marker}


def test_plugin_one_junit_case_per_puzzle_with_the_verdict(plugin_run: dict[str, Any]) -> None:
    result = plugin_run["result"]
    assert result.returncode == 1, result.stdout + result.stderr  # pytest: some tests failed
    suite = ET.parse(plugin_run["junit"]).getroot().find("testsuite")
    assert suite is not None
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert list(cases) == list(POINTS) and {c.get("classname") for c in cases.values()} == {"jacpuzzles"}
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped")) == (
        str(len(POINTS)),
        "1",
        "1",
        str(len(POINTS) - 4),
    )
    for name in RIGHT:
        assert list(cases[name]) == []  # passed
    failure = cases["relu"].find("failure")
    assert failure is not None and failure.text is not None
    assert failure.text.startswith("relu: FAIL, 0/1 point\n- ") and "Traceback" not in failure.text
    error = cases["id"].find("error")  # an answer that raises: an error, as a test's setup error is
    assert error is not None and (error.text or "").startswith("id: ERROR, 0/1 point\n- jac raised ValueError: oops")
    skipped = cases["prod"].find("skipped")
    assert skipped is not None and "todo: no answer file prod.py" in (skipped.get("message") or "")
    assert "FAILED jacpuzzles::relu" in result.stdout and "ERROR jacpuzzles::id" in result.stdout


def test_plugin_grades_once_before_the_tests_outside_their_time_limit(plugin_run: dict[str, Any]) -> None:
    out = plugin_run["result"].stdout + plugin_run["result"].stderr
    assert "Timeout" not in out and "timed out" not in out
    assert out.count(f"jacpuzzles: grading {len(POINTS)} puzzle(s) in ") == 1  # once, for every test
    assert out.count("jacpuzzles: graded in ") == 1 and "(not counted in any test's time)" in out
    # --durations=0 --durations-min=0: every phase of every test, each well within the per-test limit.
    timings = [line.split() for line in out.splitlines() if line.endswith(tuple(f"jacpuzzles::{n}" for n in POINTS))]
    phases = [
        (float(t[0].rstrip("s")), t[1], t[2])
        for t in timings
        if t[0].endswith("s") and t[1] in ("setup", "call", "teardown")
    ]
    assert {name for _, _, name in phases} == {f"jacpuzzles::{n}" for n in POINTS}
    assert max(seconds for seconds, _, _ in phases) < PLUGIN_TIMEOUT


def test_plugin_grades_only_the_selected_puzzles(tmp_path: Path) -> None:
    answers = _answers(tmp_path / "answers")
    result = _plugin(answers, "-k", "cumsum or relu", "--timeout", str(PLUGIN_TIMEOUT), cwd=tmp_path)
    assert "jacpuzzles: grading 2 puzzle(s) in " in result.stdout, result.stdout
    assert f"1 failed, 1 passed, {len(POINTS) - 2} deselected" in result.stdout


def test_plugin_finds_the_workspace_it_runs_in_as_every_command_does(tmp_path: Path) -> None:
    made = _run(["-m", "checker", "init", "ws"], tmp_path, PYTHONPATH=str(REPO))
    assert made.returncode == 0, made.stderr
    ws = tmp_path / "ws"
    for path in _answers(tmp_path / "answers").rglob("*.py"):
        shutil.copy(path, ws / "autodiff" / path.name)
    result = _run(
        [
            "-m",
            "pytest",
            "--jacpuzzles",
            "-p",
            "no:cacheprovider",
            "-k",
            "cumsum or relu",
            "--timeout",
            str(PLUGIN_TIMEOUT),
        ],
        ws / "autodiff",
        JACPUZZLES_CACHE=os.environ["JACPUZZLES_CACHE"],
        PYTHONPATH=str(REPO),
    )  # at any depth
    assert f"jacpuzzles: grading 2 puzzle(s) in {ws.resolve()}" in result.stdout, result.stdout + result.stderr
    assert f"1 failed, 1 passed, {len(POINTS) - 2} deselected" in result.stdout


def test_plugin_in_a_students_workspace_asks_for_the_instructors_assignment(tmp_path: Path) -> None:
    (tmp_path / "hw.toml").write_text("seed = 7\nvariants = true\n\n[puzzles]\ncumsum = 3\n")
    made = _run(
        ["-m", "checker", "init", "ws", "--assignment", "hw.toml", "--student", "s1"], tmp_path, PYTHONPATH=str(REPO)
    )
    assert made.returncode == 0, made.stderr
    result = _run(["-m", "pytest", "--jacpuzzles", "-p", "no:cacheprovider"], tmp_path / "ws", PYTHONPATH=str(REPO))
    assert result.returncode == 4, result.stdout
    assert "is student s1's workspace for an assignment: pass the instructor's file and the id, " in result.stderr
    assert "`--jacpuzzles-assignment FILE --jacpuzzles-student s1`" in result.stderr


def test_plugin_reports_a_grading_failure_in_every_test_without_grading_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from checker.frontends import _pytest_plugin
    from checker.grading import _grade

    calls = []

    def broken(*args: Any, **kwargs: Any) -> None:
        calls.append(args)
        raise RuntimeError("the zygote died")

    monkeypatch.setattr(_grade, "grade_one", broken)
    config = type(
        "Config",
        (),
        {
            "getoption": lambda self, name: None,
            "pluginmanager": type("PM", (), {"get_plugin": lambda self, name: None})(),
        },
    )()
    session = _pytest_plugin._Session(config, tmp_path)  # type: ignore[arg-type]
    session.grade(["cumsum", "neg"])
    first, second = session.result("cumsum"), session.result("neg")
    assert len(calls) == 1
    assert (
        first
        == second
        == f"the answers in {tmp_path} could not be graded: the grader failed: RuntimeError: the zygote died"
    )


def test_plugin_imports_no_conftest_and_no_test_file_among_the_answers(plugin_run: dict[str, Any]) -> None:
    assert not plugin_run["marker"].exists()


def test_plugin_is_inert_without_its_flag(tmp_path: Path) -> None:
    (tmp_path / "test_mine.py").write_text(
        "import sys\n\n"
        "def test_nothing_of_ours_ran(pytestconfig):\n"
        "    assert pytestconfig.pluginmanager.get_plugin('jacpuzzles-session') is None\n"
        "    assert 'jax' not in sys.modules and 'checker.grading._grade' not in sys.modules\n"
    )
    result = _run(["-m", "pytest", "-p", "no:cacheprovider", "-v"], tmp_path)
    assert "test_mine.py::test_nothing_of_ours_ran PASSED" in result.stdout, result.stdout
    assert result.returncode == 0 and "1 passed" in result.stdout
    # Registered: pytest loads it wherever jacpuzzles is installed, for this very suite too.
    assert "checker.frontends._pytest_plugin" in [e.value for e in entry_points(group="pytest11")]


# ---- bad setups ----


def test_bad_setups_say_what_to_do(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_OUTPUT"}
    no_output = subprocess.run(
        [sys.executable, "-m", "checker", "grade", "--github-classroom"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**env, "COLUMNS": "300"},
        timeout=120,
    )
    assert no_output.returncode == 2 and "Traceback" not in no_output.stderr
    assert (
        "GITHUB_OUTPUT is not set: --github-classroom writes its result to the file named by $GITHUB_OUTPUT"
        in no_output.stderr
    )
    no_root = jacpuzzles("--gradescope", "--gradescope-root", str(tmp_path / "nowhere"), cwd=tmp_path)
    assert (
        no_root.returncode == 2
        and "no submission folder" in no_root.stderr
        and "--gradescope-root DIR" in no_root.stderr
    )
    both = jacpuzzles(str(tmp_path), "--github-classroom", cwd=tmp_path, GITHUB_OUTPUT=str(tmp_path / "o"))
    assert both.returncode == 2 and "drop SUBMISSIONS" in both.stderr
    no_out = jacpuzzles(str(tmp_path), cwd=tmp_path)
    assert no_out.returncode == 2 and "grade needs --out OUT" in no_out.stderr
    no_dir = _run(["-m", "pytest", "--jacpuzzles", "--jacpuzzles-dir", "missing", "-p", "no:cacheprovider"], tmp_path)
    assert no_dir.returncode == 4 and "--jacpuzzles-dir 'missing' is not a folder" in no_dir.stderr


def test_feedback_names_an_exposing_input_only_for_a_mistake_on_some_draws() -> None:
    # Not "Exposed by the within 1e-05 of the low end of the domain", and no "Exposed by" for
    # answers wrong on every draw.
    from checker.frontends._autograde import puzzle_feedback

    result = {
        "puzzle": "cos", "status": "fail", "points": 0, "max_points": 1, "message": "m", "path": None,
        "diagnoses": [{"kind": "cells", "message": "the Jacobian is wrong on its only entry"}], "draws": 80,
        "draw": {"label": "within 1e-05 of the low end of the domain", "x": [-0.99999]}, "wrong_on_every_draw": False,
    }
    text = puzzle_feedback(result)
    assert text.startswith("cos: FAIL, 0/1 point\n")
    assert "Exposed by the draw with entries within 1e-05 of the low end of the domain:\n  x = [-1]" in text
    everywhere = puzzle_feedback({**result, "wrong_on_every_draw": True, "max_points": 2})
    assert everywhere.startswith("cos: FAIL, 0/2 points\n")
    assert "Exposed by" not in everywhere
    assert (
        "Wrong on all 80 draws; shown on the draw with entries within 1e-05 of the low end of the domain:" in everywhere
    )


@pytest.mark.parametrize("metadata", ["fifo", "nested", "surrogate"])
def test_metadata_gradescope_did_not_write_names_nobody_and_never_hangs(tmp_path: Path, metadata: str) -> None:
    # Red team RT31: a FIFO hung the grader, arrays nested 100000 deep and a lone surrogate in
    # `email` ended it with a traceback.
    path = tmp_path / "submission_metadata.json"
    if metadata == "fifo":
        os.mkfifo(path)
    elif metadata == "nested":
        path.write_text("[" * 100000 + "]" * 100000)
    else:
        path.write_text('{"users": [{"email": "\\ud800", "sid": "\\u0000s1234", "id": "\\u2028"}]}')
    assert _autograde.gradescope_identities(tmp_path) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_a_classroom_result_that_cannot_be_written_is_one_line() -> None:
    with pytest.raises(BadSetup, match="cannot append the result to GITHUB_OUTPUT=/dev/full: No space left"):
        _autograde._append_result("/dev/full", ungradable("s", "", "why", {"neg": 1}))
