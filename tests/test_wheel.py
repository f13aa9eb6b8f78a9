"""From a wheel, without the repository: build, install in a fresh venv, and take the learner's loop.

The venv sees the packages of the interpreter running the tests but the kit (JAX is not
downloaded again) through a path file, behind its own. The test still proves first that `checker` is
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

from checker.engine._stubs import answer_part
from tests.conftest import REPO, SOLUTIONS

pytestmark = pytest.mark.slow

# What a build reads: the package, the reference answers, and the build configuration.
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "checker", "solutions", "docs")


def run(*command: str | Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(c) for c in command], capture_output=True, text=True, cwd=cwd, env=env,
        stdin=subprocess.DEVNULL, timeout=240,
    )
    assert result.returncode == 0, (
        f"{command} exited {result.returncode}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    )
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
        packaged = {
            n.removeprefix("checker/_data/solutions/"): zf.read(n)
            for n in zf.namelist()
            if n.startswith("checker/_data/solutions/")
        }
        names = set(zf.namelist())
    source = {p.relative_to(SOLUTIONS).as_posix(): p.read_bytes() for p in SOLUTIONS.glob("*/*.py")}
    assert packaged == source
    assert {
        "checker/_data/autodiff.toml",
        "checker/_data/indexing.toml",
        "checker/_data/classroom.yml",
        "checker/py.typed",
    } <= names


def test_the_wheel_carries_every_documentation_page_unchanged(wheel: Path) -> None:
    from checker.learner._docs import PAGES

    docs = REPO / "docs"
    with zipfile.ZipFile(wheel) as zf:
        packaged = {n.removeprefix("checker/_docs/"): zf.read(n) for n in zf.namelist()
                    if n.startswith("checker/_docs/")}
    source = {p.relative_to(docs).as_posix(): p.read_bytes() for pattern in PAGES for p in docs.glob(pattern)}
    assert packaged == source
    assert {"grading.md", "solving.md", "errata.md", "packs.md", "templates/assignment.toml"} <= set(packaged)


def _fresh_venv(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A venv without the kit that sees this interpreter's other packages; its python and env."""
    venv = tmp_path / "venv"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["COLUMNS"] = "160"
    run(sys.executable, "-m", "venv", venv, cwd=tmp_path, env=env)
    # The other packages, linked one by one into a folder of their own: the kit's own record
    # (an editable install's dist-info) would tell pip and importlib that the kit is there.
    others = tmp_path / "others"
    others.mkdir()
    for folder in dict.fromkeys(Path(sysconfig.get_path(name)) for name in ("purelib", "platlib")):
        for entry in folder.iterdir():
            if not entry.name.lower().startswith(("jacpuzzles", "__editable__", "checker")) and entry.suffix != ".pth":
                (others / entry.name).symlink_to(entry)
    (own,) = venv.glob("lib/python*/site-packages")
    (own / "zz-the-tests-packages.pth").write_text(f"{others}\n")
    return venv, env


def test_learner_loop_from_an_installed_wheel(wheel: Path, tmp_path: Path) -> None:
    venv, env = _fresh_venv(tmp_path)
    python, jacpuzzles = venv / "bin" / "python", venv / "bin" / "jacpuzzles"
    run(python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel, cwd=tmp_path, env=env)
    home = tmp_path / "home"  # outside the repository, no workspace above it
    home.mkdir()
    where = run(
        python,
        "-c",
        "import checker, checker.engine._solutions as s; print(checker.__file__); print(s.folder())",
        cwd=home,
        env=env,
    )
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
    assert run(jacpuzzles, "docs", "docs/errata.md", cwd=home, env=env).stdout.strip()  # a path works as a name too
    assert "A jacpuzzles assignment" in run(jacpuzzles, "docs", "templates/assignment.toml", cwd=home, env=env).stdout
    listed = run(jacpuzzles, "docs", cwd=home, env=env).stdout
    assert all(name in listed for name in ("solving", "jacobians", "checker", "cli", "grading", "packs", "errata"))
    assert ((home / "template" / ".github" / "workflows" / "classroom.yml").read_text()
            == (REPO / "docs" / "templates" / "classroom.yml").read_text())


def test_a_notebooks_setup_cell_installs_the_kit_in_a_fresh_environment(wheel: Path, tmp_path: Path) -> None:
    """The set-up cell of a notebook written with `--install-from WHEEL`, run as a fresh Colab
    kernel would (a Python without the kit), then a check cell of the reference answer."""
    import nbformat

    venv, env = _fresh_venv(tmp_path)
    python = venv / "bin" / "python"
    missing = subprocess.run([python, "-c", "import checker"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert missing.returncode != 0, "the fresh environment must start without the kit"
    written = tmp_path / "autodiff.ipynb"
    run(sys.executable, "-m", "checker", "notebook", written, "--blank", "--install-from", wheel, cwd=tmp_path,
        env=dict(os.environ))
    cells = nbformat.read(str(written), as_version=4).cells
    setup = next(c.source for c in cells if c.cell_type == "code")
    answer = answer_part((SOLUTIONS / "autodiff" / "cumsum.py").read_text())
    program = (f"{setup}\n\n{answer}\n\nresult = checker.check('cumsum', jac)\n"
               "print('passed' if result.passed else 'failed', checker.__file__)\n")
    ran = run(python, "-c", program, cwd=tmp_path, env=env)
    assert ran.stdout.split()[-2] == "passed", ran.stdout
    assert Path(ran.stdout.split()[-1]).resolve().is_relative_to(venv.resolve())  # installed by the cell
