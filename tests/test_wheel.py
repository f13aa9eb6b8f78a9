"""From a wheel, without the repository: build, install in a fresh venv, and take the learner's loop.

The venv sees the packages of the interpreter running the tests (JAX is not downloaded again)
through a path file: behind its own, and without running their path files, so an editable
install of this checkout is not among them. The test still proves first that `checker` is
imported from the venv, not from this checkout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO, SOLUTIONS

pytestmark = pytest.mark.slow

# What a build reads: the package, the reference answers, and the build configuration.
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "checker", "solutions", "docs")


def run(*command: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, cwd=cwd, env=env,
        stdin=subprocess.DEVNULL, timeout=240,
    )
    assert result.returncode == 0, f"{command} exited {result.returncode}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the sources (the checkout's own build/ folder is left alone)."""
    src = tmp_path_factory.mktemp("src")
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy(REPO / name, src / name)
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q", "-w", dist, src,
        cwd=src, env=dict(os.environ))
    (built,) = dist.glob("jacpuzzles-*.whl")
    return built


def test_the_wheel_carries_every_reference_answer_unchanged(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        packaged = {n.removeprefix("checker/_data/solutions/"): zf.read(n) for n in zf.namelist() if n.startswith("checker/_data/solutions/")}
        names = set(zf.namelist())
    source = {p.relative_to(SOLUTIONS).as_posix(): p.read_bytes() for p in SOLUTIONS.glob("*/*.py")}
    assert packaged == source
    assert {"checker/_data/autodiff.toml", "checker/_data/indexing.toml", "checker/_data/classroom.yml", "checker/py.typed"} <= names


def test_the_wheel_carries_every_documentation_page_unchanged(wheel: Path) -> None:
    from checker.learner._docs import PAGES

    docs = REPO / "docs"
    with zipfile.ZipFile(wheel) as zf:
        packaged = {n.removeprefix("checker/_docs/"): zf.read(n) for n in zf.namelist() if n.startswith("checker/_docs/")}
    source = {p.relative_to(docs).as_posix(): p.read_bytes() for pattern in PAGES for p in docs.glob(pattern)}
    assert packaged == source
    assert {"grading.md", "solving.md", "errata.md", "packs.md", "templates/assignment.toml"} <= set(packaged)


def test_learner_loop_from_an_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["COLUMNS"] = "160"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=env)
    python, jacpuzzles = venv / "bin" / "python", venv / "bin" / "jacpuzzles"
    (own,) = venv.glob("lib/python*/site-packages")
    ours = dict.fromkeys(sysconfig.get_path(name) for name in ("purelib", "platlib"))
    (own / "zz-the-tests-packages.pth").write_text("".join(f"{path}\n" for path in ours))
    run(python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel, cwd=tmp_path, env=env)
    home = tmp_path / "home"  # outside the repository, no workspace above it
    home.mkdir()
    where = run(python, "-c", "import checker, checker.engine._solutions as s; print(checker.__file__); print(s.folder())", cwd=home, env=env)
    module, solutions = where.stdout.split()
    assert Path(module).resolve().is_relative_to(venv.resolve()), module
    assert not Path(module).resolve().is_relative_to(REPO), module
    assert Path(solutions).resolve().is_relative_to(venv.resolve()), solutions

    made = run(jacpuzzles, "init", "ws", cwd=home, env=env)
    assert "Made a workspace in ws: 58 puzzle stubs" in made.stdout
    ws = home / "ws"
    (ws / "autodiff" / "cumsum.py").write_text((SOLUTIONS / "autodiff" / "cumsum.py").read_text())
    checked = run(jacpuzzles, "check", "cumsum", cwd=ws, env=env)
    assert "✔ cumsum: PASS" in checked.stdout and "★ one line (26 columns)" in checked.stdout
    listed = run(jacpuzzles, "list", cwd=ws / "autodiff", env=env)
    row = next(line for line in listed.stdout.splitlines() if "│ cumsum " in line)
    assert row.split("│")[-1].strip() == "pass" and row.split("│")[-2].strip() == "★"
    assert "1/58 puzzles pass" in listed.stdout
    page = run(jacpuzzles, "show", "cumsum", "--page", cwd=ws, env=env)  # no docs/ in a wheel install
    assert "What your answer is tried on" in page.stdout and "Hint 3/3" in page.stdout
    shown = run(jacpuzzles, "solution", "cumsum", cwd=ws, env=env)
    assert "return (Is <= Os) / 20" in shown.stdout and "Why it is right" in shown.stdout
    run(jacpuzzles, "init", "--classroom", "template", cwd=home, env=env)  # the workflow is package data
    # The pages messages and --help name, by the command they name (no docs/ in a wheel install).
    assert "`jacpuzzles docs grading`" in run(jacpuzzles, "grade", "--help", cwd=home, env=env).stdout
    grading = run(jacpuzzles, "docs", "grading", cwd=home, env=env)
    assert "Grading a class: jacpuzzles grade" in grading.stdout and "The threat model, as built" in grading.stdout
    assert run(jacpuzzles, "docs", "docs/errata.md", cwd=home, env=env).stdout.strip()  # as the statements name it
    assert "A jacpuzzles assignment" in run(jacpuzzles, "docs", "templates/assignment.toml", cwd=home, env=env).stdout
    listed = run(jacpuzzles, "docs", cwd=home, env=env).stdout
    assert all(name in listed for name in ("solving", "jacobians", "checker", "cli", "grading", "packs", "errata"))
    assert (home / "template" / ".github" / "workflows" / "classroom.yml").read_text() == (REPO / "docs" / "templates" / "classroom.yml").read_text()
