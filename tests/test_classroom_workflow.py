"""The CI templates run as GitHub Actions would run them, on a template repository made by
`jacpuzzles init --classroom`: each `run:` step of the workflow through bash, with the variables
Actions sets, then GitHub Classroom's reporter (its v1 logic, ported below) on the step output.

The reference answers copied into the template get full marks; the stubs as they are, zero.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from checker import puzzles
from checker.learner import _workspace
from tests._grading import run_grade
from tests.conftest import REPO, SOLUTIONS

yaml = pytest.importorskip("yaml")

TOTAL = sum(p.points for p in puzzles())
TEMPLATES = REPO / "docs" / "templates"


def _shims(folder: Path) -> Path:
    """`jacpuzzles` and `python` on PATH, as the workflow's install step leaves them: this copy."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "jacpuzzles").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m checker "$@"\n')
    (folder / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    for shim in folder.iterdir():
        shim.chmod(0o755)
    return folder


def _expand(text: str, outputs: dict[str, dict[str, str]], env: dict[str, str]) -> str:
    """The `${{ steps.ID.outputs.NAME }}` and `${{ env.NAME }}` expressions the templates use."""

    def value(match: re.Match[str]) -> str:
        expression = match.group(1).strip()
        step = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression)
        if step:
            return outputs.get(step.group(1), {}).get(step.group(2), "")
        named = re.fullmatch(r"env\.(\w+)", expression)
        assert named, f"an expression this test does not evaluate: {expression}"
        return env.get(named.group(1), "")

    return re.sub(r"\$\{\{(.*?)\}\}", value, text)


def run_workflow(workflow: Path, checkout: Path, tmp: Path) -> dict[str, Any]:
    """Run the workflow's only job on `checkout` as Actions would, minus the `uses:` steps
    (checkout, setup-python, cache) and the install step; the Classroom reporter is ported.
    Returns each step's exit code, the step outputs, and what the reporter would post."""
    document = yaml.safe_load(workflow.read_text())
    (job,) = document["jobs"].values()
    home, temp = tmp / "home", tmp / "runner-temp"
    home.mkdir(parents=True)
    temp.mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "JAX_"))},
        "JACPUZZLES_TF": "off",  # TensorFlow is not installed on a runner: its recorded results
        **{k: str(v) for k, v in (document.get("env") or {}).items()},
        "PATH": f"{_shims(tmp / 'bin')}{os.pathsep}{os.environ['PATH']}",
        "PYTHONPATH": str(REPO), "HOME": str(home), "RUNNER_TEMP": str(temp), "GITHUB_ACTIONS": "true",
        "GITHUB_ACTOR": "student", "GITHUB_WORKSPACE": str(checkout), "GITHUB_STEP_SUMMARY": str(tmp / "summary.md"),
        "COLUMNS": "",
    }
    outputs: dict[str, dict[str, str]] = {}
    codes: dict[str, int] = {}
    logs: dict[str, str] = {}
    reporter = None
    for k, step in enumerate(job["steps"]):
        name = step.get("name") or step.get("uses") or f"step {k}"
        if "uses" in step:
            if step["uses"].startswith("classroom-resources/autograding-grading-reporter@"):
                reporter = step
            continue
        if name == "Install jacpuzzles":
            continue
        output = tmp / f"output-{k}"
        output.write_text("")
        step_env = {
            **env,
            **{key: _expand(str(v), outputs, env) for key, v in (step.get("env") or {}).items()},
            "GITHUB_OUTPUT": str(output),
        }
        done = subprocess.run(
            ["bash", "-e", "-c", step["run"]],
            cwd=checkout,
            env=step_env,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=600,
        )
        codes[name], logs[name] = done.returncode, done.stdout
        if "id" in step:
            outputs[step["id"]] = dict(
                line.partition("=")[::2] for line in output.read_text().splitlines() if "=" in line
            )
        if done.returncode != 0 and step.get("if") != "always()" and not name.startswith("Grade"):
            raise AssertionError(f"step {name!r} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    posted = None
    if reporter is not None:
        reporter_env = {key: _expand(str(v), outputs, env) for key, v in (reporter.get("env") or {}).items()}
        posted = classroom_reporter(reporter["with"]["runners"], reporter_env)
    return {"codes": codes, "logs": logs, "outputs": outputs, "posted": posted, "home": home, "temp": temp}


def classroom_reporter(runners: str, env: dict[str, str]) -> dict[str, Any]:
    """What classroom-resources/autograding-grading-reporter@v1 does with its inputs (src/main.js,
    src/notify-classroom.js): per runner, `<RUNNER.trim().toUpperCase()>_RESULTS`, base64 JSON;
    the points annotated are the tests' scores summed over runners with a non-zero max_score."""
    results = [json.loads(base64.b64decode(env[f"{runner.strip().upper()}_RESULTS"])) for runner in runners.split(",")]
    graded = [r for r in results if r.get("max_score")]
    total, most = sum(t["score"] for r in graded for t in r["tests"]), sum(r["max_score"] for r in graded)
    failed = "Some tests failed." if any(r["status"] == "fail" for r in results) else (
        "Some tests errored." if any(r["status"] == "error" for r in results) else None)
    return {"notice": f"Points {total}/{most}" if most else None, "failed": failed, "results": results}


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The template repository `jacpuzzles init --classroom` writes."""
    base = tmp_path_factory.mktemp("template")
    done = subprocess.run(
        [sys.executable, "-m", "checker", "init", "--classroom", "tmpl"],
        cwd=base,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"},
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Also wrote .github/workflows/classroom.yml (GitHub Classroom's autograding) and .gitignore" in done.stdout
    return base / "tmpl"


def _solved(template: Path, target: Path) -> Path:
    """A student's repository: the template with every reference answer copied in."""
    shutil.copytree(template, target)
    for path in SOLUTIONS.glob("*/*.py"):
        shutil.copyfile(path, target / path.relative_to(SOLUTIONS))
    return target


def test_init_classroom_writes_the_workflow_and_a_gitignore(template: Path) -> None:
    assert (template / ".github" / "workflows" / "classroom.yml").read_text() == (
        TEMPLATES / "classroom.yml"
    ).read_text()
    assert (template / ".gitignore").read_text() == _workspace.CLASSROOM_GITIGNORE
    assert _workspace.marker(template).is_file()
    assert {p.name for p in template.iterdir()} == {
        ".github",
        ".gitignore",
        ".jacpuzzles",
        "autodiff",
        "indexing",
        "layers",
    }


def test_classroom_workflow_asks_only_what_the_reporter_v1_needs() -> None:
    """The reporter (v1) posts its points as annotations and calls no API: no `checks: write`.
    It reads `<ID>_RESULTS` for each id of `runners`, the grading step's output."""
    document = yaml.safe_load((TEMPLATES / "classroom.yml").read_text())
    assert document["permissions"] == {"contents": "read"}
    steps = document["jobs"]["run-autograding-tests"]["steps"]
    (reporter,) = [s for s in steps if s.get("uses") == "classroom-resources/autograding-grading-reporter@v1"]
    (grading,) = [s for s in steps if s.get("id") == "jacpuzzles"]
    runners = reporter["with"]["runners"].split(",")
    assert reporter["env"] == {
        f"{r.strip().upper()}_RESULTS": f"${{{{ steps.{grading['id']}.outputs.result }}}}" for r in runners
    }
    assert reporter["if"] == "always()"


def test_init_classroom_refuses_an_existing_workflow_and_writes_nothing(tmp_path: Path) -> None:
    workflow = tmp_path / ".github" / "workflows" / "classroom.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text("mine")
    with pytest.raises(_workspace.WorkspaceError, match="classroom.yml already exists. Nothing was written"):
        _workspace.init_classroom(tmp_path)
    assert workflow.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == [".github"]


@pytest.mark.slow  # the whole catalog, graded as a fresh runner does
def test_classroom_workflow_gives_full_marks_to_the_reference_answers(template: Path, tmp_path: Path) -> None:
    repo = _solved(template, tmp_path / "repo")
    ran = run_workflow(repo / ".github" / "workflows" / "classroom.yml", repo, tmp_path)
    assert ran["codes"]["Grade the puzzles"] == 0
    posted = ran["posted"]
    assert posted["notice"] == f"Points {TOTAL}/{TOTAL}" and posted["failed"] is None
    (result,) = posted["results"]
    assert [t["status"] for t in result["tests"]] == ["pass"] * len(puzzles())
    assert f"repo: {TOTAL}/{TOTAL} points" in ran["logs"]["Grade the puzzles"]


def test_the_kept_jax_cache_holds_nothing_a_seed_changes(tmp_path: Path) -> None:
    """What the templates' cache step keeps: the grader's compiled programs, the same whatever
    the seed (the draws are their arguments), so neither a draw nor an expected Jacobian."""
    for name in ("cumsum", "relu"):
        (tmp_path / "repo" / "autodiff").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(SOLUTIONS / "autodiff" / f"{name}.py", tmp_path / "repo" / "autodiff" / f"{name}.py")
    for workflow in ("classroom.yml", "grade.yml"):
        text = (TEMPLATES / workflow).read_text()
        assert (
            'export JAX_COMPILATION_CACHE_DIR="$HOME/.cache/jacpuzzles-jax" '
            'JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS=0'
            in text
        )
        assert "path: ~/.cache/jacpuzzles-jax" in text
    cache = tmp_path / "jax-cache"
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("JAX_")},
        "PYTHONPATH": str(REPO),
        "JACPUZZLES_TF": "off",
        "JAX_COMPILATION_CACHE_DIR": str(cache),
        "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
        "JACPUZZLES_CACHE": "off",
        "GITHUB_OUTPUT": str(tmp_path / "output"),
    }
    entries = []
    for seed in ("0", "7"):
        done = run_grade(github_classroom="repo", seed=seed, timeout=10, wait=600, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        entries.append(sorted(p.name for p in cache.iterdir()))
    assert entries[0] and entries[1] == entries[0]


def test_classroom_workflow_gives_zero_to_the_stubs(template: Path, tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(template, repo)
    ran = run_workflow(repo / ".github" / "workflows" / "classroom.yml", repo, tmp_path)
    assert ran["codes"]["Grade the puzzles"] == 0  # graded: the reporter, not the step, fails the job
    assert ran["posted"]["notice"] == f"Points 0/{TOTAL}" and ran["posted"]["failed"] == "Some tests failed."


@pytest.mark.slow  # the whole catalog, graded as a fresh runner does
def test_grade_workflow_on_the_template(template: Path, tmp_path: Path) -> None:
    """templates/grade.yml: full marks pass the threshold; the stubs fail the job (exit code 1)."""
    workflow = TEMPLATES / "grade.yml"
    solved = run_workflow(workflow, _solved(template, tmp_path / "solved"), tmp_path / "a")
    assert solved["codes"]["Grade"] == 0
    assert (solved["temp"] / "grades" / "student.json").is_file()
    doc = json.loads((solved["temp"] / "grades" / "student.json").read_text())
    assert doc["score"] == doc["max_score"] == TOTAL
    assert f"Scores out of {TOTAL}: mean {TOTAL}," in (tmp_path / "a" / "summary.md").read_text()  # the job summary
    stubs = tmp_path / "stubs"
    shutil.copytree(template, stubs)
    failed = run_workflow(workflow, stubs, tmp_path / "b")
    assert failed["codes"]["Grade"] == 1
    assert json.loads((failed["temp"] / "grades" / "student.json").read_text())["score"] == 0
