"""The `jacpuzzles` command line: list, show, hint, check, watch, grade, and the maintainers' `dev`.

Exit codes: 0 when every checked puzzle passes, 1 when any does not, 2 for usage errors, 130
when interrupted with Ctrl-C. Nothing an answer does (`exit()`, `os._exit`) ends a check early:
every verdict is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Sequence

from rich.console import Console, Group
from rich.progress_bar import ProgressBar
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from checker import _catalog, _state, _stubs
from checker._catalog import UnknownPuzzle, puzzle_named
from checker._stubs import find_answers
from checker._settings import DEFAULT_SEED, DEFAULT_TIMEOUT
from checker._verdict import Diagnosis, Kind, Status, Verdict

USAGE_ERROR = 2
INTERRUPTED = 130  # the shell's code for a command ended by Ctrl-C


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit code 2."""


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def _names(requested: Sequence[str]) -> list[str]:
    """Validate puzzle names; none means every puzzle in catalog order."""
    if not requested:
        return [p.name for p in _catalog.puzzles()]
    for name in requested:
        try:
            puzzle_named(name)
        except UnknownPuzzle as exc:
            raise UsageError(str(exc)) from None
    return list(dict.fromkeys(requested))


def _answers_dir(raw: str) -> Path:
    root = Path(raw)
    if not root.is_dir():
        raise UsageError(
            f"answer folder {raw!r} does not exist: run from the folder that holds puzzles/, or pass --dir PATH"
        )
    return root


def _locate(root: Path, name: str, found: dict[str, list[Path]], seed: int) -> Path | Verdict:
    paths = found.get(name, [])
    if len(paths) > 1:
        listing = ", ".join(str(p) for p in paths)
        message = f"{len(paths)} files named {name}.py under {root}: {listing}; keep one"
        return Verdict(name, Status.ERROR, message, (Diagnosis(Kind.MISSING, message),), seed=seed)
    if not paths:
        expected = root / _stubs.relative_path(puzzle_named(name))
        message = f"no answer file {name}.py under {root} (expected at {expected})"
        return Verdict(name, Status.TODO, message, (Diagnosis(Kind.MISSING, message),), seed=seed)
    return paths[0]


def cmd_check(args: argparse.Namespace) -> int:
    names = _names(args.names)
    root = _answers_dir(args.dir)
    from checker._engine import check_files  # imports numpy; list/show/hint stay light
    from checker._oracles import keep_compilations
    from checker._report import render, to_json

    found = find_answers(root)
    located = {name: _locate(root, name, found, args.seed) for name in names}
    if any(isinstance(where, Path) for where in located.values()):
        keep_compilations()  # only once there is an answer to run: importing JAX takes time
    console = _console(stderr=args.json)
    status = console.status("checking…") if console.is_terminal and len(names) > 1 else None
    if status is not None:
        status.start()
    try:
        files = [(name, where) for name, where in located.items() if isinstance(where, Path)]
        checked = dict(zip((n for n, _ in files), check_files(files, seed=args.seed, timeout=args.timeout)))
    finally:
        if status is not None:
            status.stop()
    verdicts = [_verdict_for(name, checked, located) for name in names]
    progress = {name: (checked[name].status.value, _state.digest(path)) for name, path in files}
    _state.record(root, progress)
    points = {p.name: p.points for p in _catalog.puzzles()}
    if args.json:
        sys.stdout.write(json.dumps(to_json(verdicts, points)) + "\n")
    else:
        render(verdicts, _console(), points)
    return 0 if all(v.passed for v in verdicts) else 1


def _verdict_for(name: str, checked: dict[str, Verdict], located: dict[str, Path | Verdict]) -> Verdict:
    where = located[name]
    return where if isinstance(where, Verdict) else checked[name]


def _status_of(root: Path, name: str, found: dict[str, list[Path]], state: dict[str, dict[str, str]]) -> str:
    paths = found.get(name, [])
    if len(paths) != 1:
        return "todo" if not paths else "error"
    text = paths[0].read_text(errors="replace")
    if text == _stubs.stub(puzzle_named(name)):
        return "todo"
    seen = state.get(name, {})
    if seen.get("digest") == _state.digest(paths[0]):
        return seen.get("status", "unchecked")
    return "unchecked"


LIST_STYLE = {"pass": "bold green", "fail": "bold red", "error": "bold magenta", "todo": "yellow", "unchecked": "cyan"}


def cmd_list(args: argparse.Namespace) -> int:
    root = Path(args.dir)
    found = find_answers(root) if root.is_dir() else {}
    state = _state.verdicts(root)
    console = _console()
    total = passed = 0
    for chapter in _catalog.chapters():
        table = Table(title=f"{chapter.title} ({chapter.name})", title_justify="left", show_edge=False)
        for column in ("#", "puzzle", "title", "points", "status"):
            table.add_column(column, justify="right" if column in ("#", "points") else "left")
        for number, p in enumerate(chapter.puzzles, 1):
            status = _status_of(root, p.name, found, state)
            total += 1
            passed += status == "pass"
            table.add_row(str(number), p.name, p.title, str(p.points), Text(status, style=LIST_STYLE[status]))
        console.print(table)
        console.print()
    bar = ProgressBar(total=total, completed=passed, width=40)
    console.print(Group(Text(f"{passed}/{total} puzzles pass", style="bold"), bar))
    if not root.is_dir():
        console.print(Text(f"(no answer folder {root}: every puzzle is todo)", style="dim"))
    else:
        console.print(Text("\"unchecked\": changed since the last `jacpuzzles check`", style="dim"))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    puzzle = _one(args.name)
    console = _console()
    console.print(Text(f"{puzzle.title} ({puzzle.name}) · {puzzle.chapter} chapter · {puzzle.points} points", style="bold"))
    # Plain text, not Markdown: TeX's underscores would be read as emphasis.
    console.print(Text(puzzle.statement))
    console.print()
    console.print(Syntax(puzzle.code.rstrip(), "python", theme="ansi_dark", word_wrap=True))
    console.print(Text("Fill in:", style="bold"))
    console.print(Syntax(f"{puzzle.jac_signature()}\n    ...", "python", theme="ansi_dark", word_wrap=True))
    shapes = ", ".join(str(s) for s in puzzle.jac_shapes())
    plural = "s" if len(puzzle.jac_shapes()) > 1 else ""
    if puzzle.is_vjp:
        console.print(f"Cotangent shape{plural}: {shapes} (each shaped like its argument)")
    else:
        console.print(f"Jacobian shape{plural}: {shapes} (output axes first)")
    console.print(f"File: {Path(args.dir) / _stubs.relative_path(puzzle)} · check: jacpuzzles check {puzzle.name}")
    return 0


def cmd_hint(args: argparse.Namespace) -> int:
    puzzle = _one(args.name)
    root = Path(args.dir)
    shown = _state.hints_shown(root, puzzle.name)
    reveal = min(shown + 1, len(puzzle.hints))
    console = _console()
    for k in range(reveal):
        console.print(Text.assemble((f"Hint {k + 1}/{len(puzzle.hints)}: ", "bold"), puzzle.hints[k]))
    if shown >= len(puzzle.hints):
        console.print(Text(f"No more hints: see docs/puzzles/{puzzle.name}.md, or compare with solutions/{_stubs.relative_path(puzzle).as_posix()}.", style="dim"))
    if root.is_dir():
        _state.record_hint(root, puzzle.name, reveal)
    return 0


def cmd_watch(args: argparse.Namespace) -> int:
    root = _answers_dir(args.dir)
    from watchfiles import watch

    console = _console()
    args.names, args.json = [], False
    console.print(Text(f"watching {root} for changes; Ctrl-C to stop", style="dim"))
    try:
        for changes in watch(root, watch_filter=lambda change, path: path.endswith(".py")):
            names = sorted({Path(p).stem for _, p in changes} & {p.name for p in _catalog.puzzles()})
            if names:
                console.rule(", ".join(names))
                cmd_check(argparse.Namespace(**{**vars(args), "names": names}))
    except KeyboardInterrupt:
        pass
    return 0


def cmd_dev(args: argparse.Namespace) -> int:
    root = Path(args.root)
    console = _console()
    if args.action == "generate":
        written = _stubs.generate(root)
        console.print(f"wrote {len(written)} file(s)" + "".join(f"\n  {p}" for p in written))
        return 0
    if args.action == "record-tf":
        from checker import _tf_oracle

        if _tf_oracle.installed_version() is None:
            raise UsageError('recording needs TensorFlow: pip install -e ".[tf]"')
        written_files = _tf_oracle.record(root, args.seed)
        console.print(f"recorded TensorFlow {_tf_oracle.installed_version()} on seed {args.seed}'s draws:" + "".join(f"\n  {p}" for p in written_files))
        return 0
    problems = _stubs.drift(root)
    for problem in problems:
        console.print(Text(problem, style="red"))
    console.print("generated files match the catalog" if not problems else f"{len(problems)} file(s) drifted: run `jacpuzzles dev generate`")
    return 1 if problems else 0


def cmd_grade(args: argparse.Namespace) -> int:
    from checker._grade import BadSetup, grade_class  # imports numpy and JAX
    from checker._sandbox import Limits

    try:
        limits = Limits(args.timeout, args.memory_mb)
        return grade_class(Path(args.submissions), Path(args.out), args.jobs, limits, args.seed, _console(), _console(stderr=True))
    except BadSetup as exc:
        raise UsageError(str(exc)) from None
    except KeyboardInterrupt:
        message = f"jacpuzzles: interrupted (Ctrl-C); the submissions graded so far are kept in {args.out}: run the same command to finish"
        _console(stderr=True).print(Text(message, style="yellow"))
        return INTERRUPTED


def _one(name: str) -> _catalog.Puzzle:
    try:
        return puzzle_named(name)
    except UnknownPuzzle as exc:
        raise UsageError(str(exc)) from None


def parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for the docs and the tests)."""
    top = argparse.ArgumentParser(
        prog="jacpuzzles",
        description="Jacobian puzzles: fill in `jac`, check it against jax.jacfwd.",
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_dir(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--dir", default="puzzles", help="folder holding answer files <puzzle>.py, at any depth (default: ./puzzles)")
        return p

    p = with_dir(sub.add_parser("check", help="check answers (all puzzles when none is named)"))
    p.add_argument("names", nargs="*", metavar="NAME")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout instead of the report")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the input draws (default: %(default)s)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per call of jac (default: %(default)s)")
    p.set_defaults(run=cmd_check)
    with_dir(sub.add_parser("list", help="puzzles by chapter, with status and progress")).set_defaults(run=cmd_list)
    p = with_dir(sub.add_parser("show", help="a puzzle's statement, f and the signature of jac"))
    p.add_argument("name", metavar="NAME")
    p.set_defaults(run=cmd_show)
    p = with_dir(sub.add_parser("hint", help="reveal the next hint for a puzzle"))
    p.add_argument("name", metavar="NAME")
    p.set_defaults(run=cmd_hint)
    p = with_dir(sub.add_parser("watch", help="re-check each answer file when it is saved"))
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the input draws (default: %(default)s)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per call of jac (default: %(default)s)")
    p.set_defaults(run=cmd_watch)
    p = sub.add_parser("grade", help="grade a class: one folder or .zip per student, out of process (docs/grading.md)")
    p.add_argument("submissions", metavar="SUBMISSIONS", help="folder holding one folder or .zip per student")
    p.add_argument("--out", required=True, metavar="OUT", help="folder for the grades, reports and journal")
    p.add_argument("--jobs", type=int, default=2, help="submissions graded at a time (default: %(default)s)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per import or call of an answer (default: %(default)s)")
    p.add_argument("--memory-mb", type=int, default=1024, help="megabytes a submission's code may allocate, 0 for no limit (default: %(default)s)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the input draws (default: %(default)s)")
    p.set_defaults(run=cmd_grade)
    p = sub.add_parser("dev", help="for maintainers: regenerate or check the files generated from the catalog, record TensorFlow's results")
    p.add_argument("action", choices=("generate", "check", "record-tf"))
    p.add_argument("--root", default=".", help="the repository root (default: .)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="record-tf: seed of the draws to record (default: %(default)s)")
    p.set_defaults(run=cmd_dev)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except UsageError as exc:
        _console(stderr=True).print(Text(f"jacpuzzles: {exc}", style="red"))
        return USAGE_ERROR
    except KeyboardInterrupt:
        _console(stderr=True).print(Text("jacpuzzles: interrupted (Ctrl-C); nothing was recorded for this run", style="yellow"))
        return INTERRUPTED


def entry() -> None:
    """The console script."""
    sys.exit(main())
