"""`jacpuzzles docs PAGE`: every page a message or `--help` text names can be printed, from a
checkout as from a wheel (tests/test_wheel.py takes the wheel's side)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from checker.learner import _docs
from tests.conftest import REPO

PACKAGE = REPO / "checker"


def jacpuzzles(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "checker", *args], capture_output=True, text=True, cwd=REPO, env=env,
                          stdin=subprocess.DEVNULL, timeout=120)


def _strings() -> list[tuple[Path, str]]:
    """Every string constant in the package's code (messages, help texts), docstrings included,
    and every line of its data files (statements, hints)."""
    found: list[tuple[Path, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.append((path, node.value))
    for path in sorted((PACKAGE / "_data").glob("*.toml")):
        found += [(path, line) for line in path.read_text(encoding="utf-8").splitlines()]
    return found


def test_every_page_the_package_names_is_one_docs_prints() -> None:
    named: dict[str, Path] = {}
    for path, text in _strings():
        for name in re.findall(r"`jacpuzzles docs ([\w./-]+)`", text):
            if not name.isupper():  # a placeholder: `jacpuzzles docs PAGE`
                named[name] = path
        for name in re.findall(r"\bdocs/([\w-]+\.md|templates/[\w.-]+\.(?:toml|yml))", text):
            named[name] = path
    assert {"grading", "packs", "autograding", "templates/assignment.toml", "errata"} <= set(named)
    for name, path in named.items():
        text, _ = _docs.page(name)  # UnknownPage otherwise
        assert text.strip(), (name, path)


def test_the_kits_own_messages_name_the_command_not_a_path() -> None:
    """What the learner's loop, the command line and the front-ends print works without a
    checkout. (`jacpuzzles docs docs/grading.md` prints a page too, pinned below, for a path
    written elsewhere.)"""
    from checker.cli._cli import parser

    help_texts = [action.help or "" for sub in parser()._subparsers._group_actions for p in sub.choices.values()  # type: ignore[union-attr]
                  for action in p._actions]
    help_texts += [choice.help or "" for sub in parser()._subparsers._group_actions  # type: ignore[union-attr]
                   for choice in sub._choices_actions]
    assert not [t for t in help_texts if "docs/" in t.replace("`jacpuzzles docs ", "")]
    assert any("`jacpuzzles docs grading`" in t for t in help_texts)


def _messages() -> list[tuple[Path, int, str]]:
    """Every string constant in the package's code but docstrings: what it prints or writes."""
    found: list[tuple[Path, int, str]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scopes = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        bodies = [n for n in ast.walk(tree) if isinstance(n, scopes)]
        docstrings = {id(b.body[0].value) for b in bodies if b.body and isinstance(b.body[0], ast.Expr)}
        found += [(path, node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]
    return found


def test_the_graders_messages_and_the_statements_name_the_command_not_a_path() -> None:
    """A teacher or learner with the wheel has no `docs/` folder either: what the grader prints,
    the pack template's README, the Classroom workflow and the statements a learner reads name a
    page by `jacpuzzles docs PAGE`. (Comments and docstrings are for the kit's own maintainers.)"""
    path = re.compile(r"\bdocs/[\w/-]+\.(?:md|toml|yml)")
    found = [f"{p.relative_to(REPO)}:{line}" for p, line, text in _messages() if path.search(text)]
    for data in sorted([*(PACKAGE / "_data").glob("*.toml"), *(PACKAGE / "_data").glob("*.yml")]):
        lines = data.read_text(encoding="utf-8").splitlines()
        found += [f"{data.relative_to(REPO)}:{n}" for n, line in enumerate(lines, 1)
                  if path.search(line.partition("#")[0] if data.suffix == ".toml" else line)]
    assert not found, found
    from checker.grading import _grade

    assert _grade._refused_unconfined("no Landlock").endswith(
        "(`jacpuzzles docs grading`, section \"The threat model, as built\")"
    )
    assert "`jacpuzzles docs grading`" in _grade._ADVICE


def test_the_wheel_build_copies_the_pages_docs_reads() -> None:
    tree = ast.parse((REPO / "setup.py").read_text(encoding="utf-8"))
    (value,) = [ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                and getattr(n.targets[0], "id", "") == "DOC_PAGES"]
    assert value == _docs.PAGES


def test_docs_prints_a_page_as_text_and_lists_the_pages() -> None:
    shown = jacpuzzles("docs", "grading")
    assert shown.returncode == 0, shown.stderr
    assert "Grading a class: jacpuzzles grade" in shown.stdout and "##" not in shown.stdout.splitlines()[0]
    assert jacpuzzles("docs", "docs/grading.md").stdout == shown.stdout  # a message's path works as a name
    template = jacpuzzles("docs", "templates/assignment.toml")
    assert template.returncode == 0, template.stderr
    assert "A jacpuzzles assignment" in template.stdout
    listed = jacpuzzles("docs")
    assert listed.returncode == 0
    for name in ("solving", "jacobians", "checker", "grading", "packs", "errata", "templates/assignment.toml"):
        assert re.search(rf"^{re.escape(name)}\s", listed.stdout, re.M), name


def test_an_unknown_page_is_a_usage_error_that_lists_the_pages() -> None:
    result = jacpuzzles("docs", "grades")
    assert result.returncode == 2
    assert "jacpuzzles: no documentation page 'grades'; the pages are: " in result.stderr
    assert "grading" in result.stderr and "`jacpuzzles docs` lists them" in result.stderr


@pytest.mark.parametrize("name", ["grading", "grading.md", "docs/grading.md", "grading.md#the-threat-model-as-built"])
def test_a_page_is_found_by_name_file_name_or_path(name: str) -> None:
    assert _docs.page(name)[1] == REPO / "docs" / "grading.md"
