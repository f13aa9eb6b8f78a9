"""The `jacpuzzles` command line: list, show, hint, check, watch, grade, and the maintainers' `dev`.

Exit codes: 0 when every checked puzzle passes, 1 when any does not, 2 for usage errors, 130
when interrupted with Ctrl-C. Nothing an answer does (`exit()`, `os._exit`) ends a check early:
every verdict is printed.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.padding import Padding
from rich.progress_bar import ProgressBar
from rich.table import Table
from rich.text import Text

from checker.authoring import _generate
from checker.engine import _badge, _catalog, _stubs, _variants
from checker.engine._catalog import puzzle_named
from checker.engine._code import CodeLines
from checker.engine._errors import JacpuzzlesError, UsageError
from checker.engine._settings import DEFAULT_SEED, DEFAULT_TIMEOUT
from checker.engine._stubs import find_answers
from checker.engine._verdict import Verdict, counted
from checker.learner import _state, _workspace

if TYPE_CHECKING:
    from checker.engine import _assignment

INTERRUPTED = 130  # the shell's code for a command ended by Ctrl-C


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False, soft_wrap=False)


def _names(requested: Sequence[str], root: Path | None = None) -> list[str]:
    """Validate puzzle names; none means every puzzle of the workspace holding `root` (the
    assignment's, in a student's workspace), in catalog order."""
    if not requested:
        return _workspace.puzzle_names(root) if root is not None else [p.name for p in _catalog.puzzles()]
    for name in requested:
        puzzle_named(name)  # else UnknownPuzzle, a usage error
    return list(dict.fromkeys(requested))


def _answers_dir(raw: str) -> Path:
    root = Path(raw)
    if not root.is_dir():
        raise UsageError(
            f"answer folder {raw!r} does not exist: run inside a workspace (make one with `jacpuzzles init DIR`), "
            "from the folder that holds puzzles/, or pass --dir PATH"
        )
    return root





def cmd_check(args: argparse.Namespace) -> int:
    root = _answers_dir(args.dir)
    names = _names(args.names, root)
    variants = _workspace.choices(root)  # the student's own variants; {} in a canonical workspace
    from checker.engine._engine import check_files  # imports numpy; list/show/hint stay light
    from checker.engine._oracles import keep_compilations
    from checker.engine._report import render, to_json

    found = find_answers(root)
    located = {name: _workspace.locate(root, name, found, args.seed) for name in names}
    if any(isinstance(where, Path) for where in located.values()):
        keep_compilations()  # only once there is an answer to run: importing JAX takes time
    console = _console(stderr=args.json)
    status = console.status("checking…") if console.is_terminal and len(names) > 1 else None
    if status is not None:
        status.start()
    try:
        files = [(name, where) for name, where in located.items() if isinstance(where, Path)]
        checked = dict(
            zip((n for n, _ in files), check_files(files, seed=args.seed, timeout=args.timeout, variants=variants))
        )
    finally:
        if status is not None:
            status.stop()
    verdicts = [_verdict_for(name, checked, located) for name in names]
    progress = {name: (checked[name].status.value, _state.digest(path)) for name, path in files}
    _state.record(root, progress)
    points = _workspace.points(root)  # the assignment's, in a student's workspace: as `grade` counts
    badges = {name: w for name, path in files if checked[name].passed and (w := _one_line(name, path)) is not None}
    if args.json:
        sys.stdout.write(json.dumps(to_json(verdicts, points, badges)) + "\n")
    else:
        render(verdicts, _console(), points, badges)
    return 0 if all(v.passed for v in verdicts) else 1


def _one_line(name: str, path: Path) -> int | None:
    """The columns of the answer at `path` when it is one line (the original challenge), else None."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return _badge.one_line_width(text, puzzle_named(name).answer_name)


def _verdict_for(name: str, checked: dict[str, Verdict], located: dict[str, Path | Verdict]) -> Verdict:
    where = located[name]
    return where if isinstance(where, Verdict) else checked[name]





LIST_STYLE = {"pass": "bold green", "fail": "bold red", "error": "bold magenta", "todo": "yellow", "unchecked": "cyan"}
# `list` keeps every puzzle name whole: names are what the learner types. The title gets a column
# of its own when it can have at least this many columns beside the longest name; else it goes
# under the name, and a name too long for the terminal folds onto a second line, never cut.
_TITLE_MIN = 20
_WIDE_FIXED = 35  # "#", "points", the badge, "unchecked", the rules and the padding between them


@dataclass(frozen=True)
class ListRow:
    """One puzzle's line in `jacpuzzles list`."""

    number: int
    name: str
    title: str
    points: int
    status: str
    one_line: bool


def list_table(title: str, rows: Sequence[ListRow], width: int) -> Table:
    """A chapter's table for `list`, laid out for a terminal `width` columns wide."""
    longest = max(len(p.name) for p in _catalog.puzzles())
    if width >= _WIDE_FIXED + longest + _TITLE_MIN:
        table = Table(title=title, title_justify="left", show_edge=False)
        table.add_column("#", justify="right")
        table.add_column("puzzle", no_wrap=True, min_width=longest)
        table.add_column("title")
        table.add_column("points", justify="right")
        table.add_column(_badge.SYMBOL)
        table.add_column("status")
        for r in rows:
            badge = Text(_badge.SYMBOL if r.one_line else "", style="yellow")
            table.add_row(
                str(r.number), r.name, r.title, str(r.points), badge, Text(r.status, style=LIST_STYLE[r.status])
            )
        return table
    table = Table(title=title, title_justify="left", show_edge=False, pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("puzzle", overflow="fold")
    table.add_column("pts", justify="right")
    table.add_column("status", no_wrap=True)
    for r in rows:
        status = Text(r.status, style=LIST_STYLE[r.status])
        if r.one_line:
            status.append(f" {_badge.SYMBOL}", style="yellow")
        name = Text.assemble((r.name, "bold"), "\n", (r.title, "dim"))
        table.add_row(str(r.number), name, str(r.points), status)
    return table


def cmd_list(args: argparse.Namespace) -> int:
    root = Path(args.dir)
    found = find_answers(root) if root.is_dir() else {}
    state = _state.verdicts(root)
    variants = _workspace.choices(root)
    followed = set(_workspace.puzzle_names(root))  # the assignment's puzzles, in a student's workspace
    points = _workspace.points(root)
    console = _console()
    total = passed = 0
    for chapter in _catalog.chapters():
        rows = []
        for number, p in enumerate(chapter.puzzles, 1):
            if p.name not in followed:
                continue
            status = _workspace.status_of(root, p.name, found, state, variants)
            total += 1
            passed += status == "pass"
            one_line = status == "pass" and _one_line(p.name, found[p.name][0]) is not None
            rows.append(ListRow(number, p.name, p.title, points[p.name], status, one_line))
        if rows:
            console.print(list_table(f"{chapter.title} ({chapter.name})", rows, console.width))
            console.print()
    # A grid, not the bar alone: a bar ends without a line break, so the next line would join it.
    progress = Table.grid(padding=(0, 1))
    progress.add_row(
        ProgressBar(total=total, completed=passed, width=min(40, max(console.width // 3, 10))),
        Text(f"{passed}/{total} puzzles pass", style="bold"),
    )
    console.print(progress)
    if not root.is_dir():
        console.print(Text(f"(no answer folder {root}: every puzzle is todo)", style="dim"))
    else:
        console.print(Text("\"unchecked\": changed since the last `jacpuzzles check`", style="dim"))
        note = _assignment_note(root)
        if note:
            console.print(Text(note, style="dim"))
    console.print(
        Text(
            f"{_badge.SYMBOL}: a passing answer in one line of at most {_badge.MAX_COLUMNS} columns, the original "
            "challenge",
            style="dim",
        )
    )
    return 0


def _assignment_note(root: Path) -> str:
    """Whose workspace this is, for `list` and `show`; "" in a canonical workspace."""
    found = _workspace.assignment(root) if root.is_dir() else None
    if found is None:
        return ""
    what = (
        "your own variant of each puzzle"
        if found.variants
        else "the published puzzles (this assignment has no variants)"
    )
    counted_here = f"the assignment's {len(found.puzzles)} puzzles" if found.puzzles else "every puzzle"
    return f"assignment workspace of student {found.student}: {counted_here}, {what}"


def reflow(text: str) -> str:
    """`text` with the line breaks inside each paragraph joined, so that a console wraps it once:
    paragraphs (split by blank lines) stay apart, and one with an indented line (code, a table)
    is kept as it is."""
    paragraphs = text.split("\n\n")
    return "\n\n".join(
        p
        if any(line[:1].isspace() for line in p.splitlines()[1:])
        else " ".join(line.strip() for line in p.splitlines())
        for p in paragraphs
    )


def cmd_show(args: argparse.Namespace) -> int:
    root = Path(args.dir)
    puzzle = _one(args.name, root)
    console = _console()
    worth = _workspace.points(root).get(puzzle.name, puzzle.points)  # the assignment's, in a student's workspace
    console.print(
        Text(f"{puzzle.title} ({puzzle.name}) · {puzzle.chapter} chapter · {counted(worth, 'point')}", style="bold")
    )
    if puzzle.variant:
        console.print(Text(f"your own variant ({_variants.label(puzzle)}), not the published puzzle", style="dim"))
    # Plain text, not Markdown: TeX's underscores would be read as emphasis. Its line breaks
    # are the catalog's: joined first, so that the text is wrapped once, to this terminal.
    console.print(Text(reflow(puzzle.statement)))
    console.print()
    # Code lines whole, never wrapped: what is copied from here is valid Python.
    console.print(CodeLines(puzzle.code.rstrip()), crop=False)
    console.print(Text("Fill in:", style="bold"))
    console.print(CodeLines(f"{puzzle.jac_signature()}\n    ..."), crop=False)
    shapes = ", ".join(str(s) for s in puzzle.jac_shapes())
    plural = "s" if len(puzzle.jac_shapes()) > 1 else ""
    if puzzle.is_vjp:
        console.print(f"Cotangent shape{plural}: {shapes} (each shaped like its argument)")
    else:
        console.print(f"Jacobian shape{plural}: {shapes} (output axes first)")
    console.print(f"File: {Path(args.dir) / _stubs.relative_path(puzzle)} · check: jacpuzzles check {puzzle.name}")
    if getattr(args, "page", False):
        from checker.cli._cli_extras import PageRest

        console.print(PageRest(puzzle))
    if getattr(args, "svg", None) or getattr(args, "mine", False):
        from checker.cli._cli_extras import write_picture

        return write_picture(puzzle, args, console)
    return 0


def cmd_notebook(args: argparse.Namespace) -> int:
    from checker.cli._cli_extras import write_notebook

    return write_notebook(args, _console())


def cmd_hint(args: argparse.Namespace) -> int:
    root = Path(args.dir)
    puzzle = _one(args.name, root)  # the hints of the student's own variant, in their workspace
    shown = _state.hints_shown(root, puzzle.name)
    reveal = min(shown + 1, len(puzzle.hints))
    console = _console()
    for k in range(reveal):
        console.print(Text.assemble((f"Hint {k + 1}/{len(puzzle.hints)}: ", "bold"), puzzle.hints[k]))
    if shown >= len(puzzle.hints):
        console.print(Text(_workspace.last_hint_note(puzzle.name), style="dim"))
    if root.is_dir():
        _state.record_hint(root, puzzle.name, reveal)
    return 0





def cmd_watch(args: argparse.Namespace) -> int:
    root = _answers_dir(args.dir)
    from checker.learner._watch import run  # the screen and its keys: docs/cli.md

    return run(root, args.seed, args.timeout, _console())


def cmd_dev(args: argparse.Namespace) -> int:
    root = Path(args.root)
    console = _console()
    if args.action == "generate":
        written = _generate.generate(root)
        console.print(f"wrote {counted(len(written), 'file')}" + "".join(f"\n  {p}" for p in written))
        return 0
    if args.action == "record-tf":
        from checker.engine import _tf_oracle

        if _tf_oracle.installed_version() is None:
            raise UsageError(f"recording needs TensorFlow: {_tf_oracle.install_advice()}")
        written_files = _tf_oracle.record(root, args.seed)
        console.print(
            f"recorded TensorFlow {_tf_oracle.installed_version()} on seed {args.seed}'s draws:"
            + "".join(f"\n  {p}" for p in written_files)
        )
        return 0
    from checker.engine import _tf_oracle

    problems = _generate.drift(root)
    for problem in problems:
        console.print(Text(problem, style="red"))
    console.print(
        "generated files match the catalog"
        if not problems
        else f"{counted(len(problems), 'file')} drifted: run `jacpuzzles dev generate`"
    )
    stale = _tf_oracle.stale()
    if stale:
        console.print(Text(
            f"the TensorFlow recording is of other draws than today's for {', '.join(stale)}: "
            f"run `{_tf_oracle.RECORD_COMMAND}` with TensorFlow installed", style="red",
        ))
    return 1 if problems or stale else 0


def cmd_grade(args: argparse.Namespace) -> int:
    from checker.engine import _assignment
    from checker.grading import _shard
    from checker.grading._grade import grade_class, merge_class  # imports numpy and JAX
    from checker.grading._sandbox import Limits

    _stop_on_sigterm()
    try:
        assignment = _assignment.load(Path(args.assignment)) if args.assignment else None
        if args.seed_file is not None:  # never on a command line: /proc/<pid>/cmdline is world-readable
            args.seed, warning = _assignment.read_seed_file(Path(args.seed_file))
            if warning:
                _console(stderr=True).print(Text(f"warning: {warning}", style="yellow"))
        if args.github_classroom is not None or args.gradescope:  # one submission, for CI
            from checker.frontends import _autograde

            given = _assignment.resolve(
                assignment or _assignment.default(),
                jobs=args.jobs,
                timeout=args.timeout,
                memory_mb=args.memory_mb,
                seed=args.seed,
            )
            return _autograde.run(
                args, Limits(given.timeout, given.memory_mb), given.seed, _console(), _console(stderr=True), assignment
            )
        if args.out is None:
            raise UsageError(
                "grade needs --out OUT, the folder for the grades (or --github-classroom / --gradescope to grade one "
                "submission for CI)"
            )
        if args.merge:
            if args.submissions is not None or args.shard is not None:
                raise UsageError(
                    "--merge takes no SUBMISSIONS and no --shard: it only writes OUT's class-wide files from the "
                    "entries copied into it"
                )
            return merge_class(Path(args.out), assignment, _console(), Path(args.key_file) if args.key_file else None)
        if args.submissions is None:
            raise UsageError(
                "grade needs SUBMISSIONS, the folder holding one folder or .zip per student (or --merge to combine "
                "shards' entries)"
            )
        try:
            shard = _shard.parse(args.shard) if args.shard is not None else None
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        # A flag given on the command line wins over the assignment file, which wins over the default.
        given = _assignment.resolve(
            assignment or _assignment.default(),
            jobs=args.jobs,
            timeout=args.timeout,
            memory_mb=args.memory_mb,
            seed=args.seed,
        )
        limits = Limits(given.timeout, given.memory_mb)
        code = grade_class(
            Path(args.submissions),
            Path(args.out),
            given.jobs,
            limits,
            given.seed,
            _console(),
            _console(stderr=True),
            assignment,
            shard,
            Path(args.key_file) if args.key_file else None,
            trust=args.trust_submissions,
        )
        if args.fail_under is None or code != 0:
            return code
        from checker.frontends._autograde import class_exit_code

        return class_exit_code(Path(args.out), args.fail_under, _console())
    except KeyboardInterrupt:
        message = (
            "jacpuzzles: interrupted (Ctrl-C or a signal to stop); the submissions graded so far are kept in "
            f"{args.out}: run the same command to finish"
        )
        _console(stderr=True).print(Text(message, style="yellow"))
        return INTERRUPTED


def _stop_on_sigterm() -> None:
    """SIGTERM (a CI job's timeout, `timeout`, `docker stop`), SIGHUP (a closed terminal or SSH
    session) and SIGUSR1/2 end grading as Ctrl-C does: the workers stopped, the scratch folder
    and its mounts removed, what was graded kept (their default is to die on the spot)."""
    import signal
    import threading

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    if threading.current_thread() is threading.main_thread():
        for name in ("SIGTERM", "SIGHUP", "SIGUSR1", "SIGUSR2"):
            if hasattr(signal, name) and signal.getsignal(getattr(signal, name)) is not signal.SIG_IGN:
                signal.signal(getattr(signal, name), interrupt)


def cmd_init(args: argparse.Namespace) -> int:
    root = Path(args.target)
    given = _init_assignment(args)
    if args.classroom:
        written = _workspace.init_classroom(root)
    else:
        written = _workspace.init(root, given, args.student if given is not None else None)
    console = _console()
    names = {path.stem for path in written}
    chapters = ", ".join(
        f"{ch.name}/ ({n})" for ch in _catalog.chapters() if (n := sum(p.name in names for p in ch.puzzles))
    )
    console.print(
        Text(f"Made a workspace in {root}: {len(written)} puzzle stubs, by chapter: {chapters}.", style="bold green")
    )
    if given is not None:
        whose = (
            f"student {args.student.strip()}'s own variant of each puzzle"
            if given.variants
            else "the published puzzles (the assignment has no variants)"
        )
        console.print(
            Text(
                f"For assignment {args.assignment} (digest {given.digest}): {whose}; recorded in "
                f"{_workspace.HOME}/{_workspace.MARKER_FILE}, "
                "which every command here reads. Hand in the folder as it is.",
                style="bold",
            )
        )
    if args.classroom:
        console.print(Text(
            f"Also wrote {_workspace.CLASSROOM_WORKFLOW.as_posix()} (GitHub Classroom's autograding) and .gitignore: "
            "set the jacpuzzles version the workflow installs (JACPUZZLES_REF in it), then push the folder as the "
            "assignment's template repository (`jacpuzzles docs autograding`).",
            style="bold",
        ))
    first = next(p for p in _catalog.puzzles() if p.name in names)
    pairs = (
        (f"cd {shlex.quote(str(root))}", ""),
        ("jacpuzzles list", "the puzzles, with your progress"),
        (f"jacpuzzles show {first.name}", "read the first puzzle"),
        (f"$EDITOR {_stubs.relative_path(first).as_posix()}", "fill in jac below the marker line"),
        (f"jacpuzzles check {first.name}", f"the verdict; `jacpuzzles hint {first.name}` when stuck"),
    )
    width = max(len(command) for command, _ in pairs)
    steps = "\n".join(f"{command.ljust(width)}  # {note}" if note else command for command, note in pairs)
    console.print(Text("Next steps:", style="bold"))
    from rich.syntax import Syntax  # pygments: only for the commands that print code, not for check

    console.print(Syntax(steps, "bash", theme="ansi_dark"))
    console.print(
        Text(f"Every command run inside {root}, at any depth, uses it; from elsewhere, add --dir {root}.", style="dim")
    )
    return 0


def _init_assignment(args: argparse.Namespace) -> _assignment.Assignment | None:
    """The assignment `init --assignment FILE --student ID` was given, loaded; None without it."""
    if args.assignment is None and args.student is None:
        return None
    if args.assignment is None:
        raise UsageError(
            "--student needs --assignment FILE too (the assignment file from your instructor): `jacpuzzles init DIR "
            "--assignment FILE --student ID`"
        )
    if args.student is None:
        raise UsageError(
            "--assignment needs --student ID too (your id, as your instructor's roster has it): `jacpuzzles init DIR "
            "--assignment FILE --student ID`"
        )
    if args.classroom:
        raise UsageError(
            "--classroom writes a template repository, the same for every student, so it takes no --assignment or "
            "--student; "
            "each student can run `jacpuzzles init DIR --assignment FILE --student ID` for stubs of their own"
        )
    from checker.engine import _assignment

    return _assignment.load(Path(args.assignment))


def cmd_reset(args: argparse.Namespace) -> int:
    puzzle = _one(args.name, Path(args.dir))
    done = _workspace.reset(Path(args.dir), puzzle)
    console = _console()
    console.print(Text(f"Restored the untouched stub of {puzzle.name} at {done.path}.", style="bold"))
    if done.backup is not None:
        console.print(f"Your previous file is kept at {done.backup} (earlier backups are never replaced).")
    else:
        console.print(
            Text("There was nothing of yours to keep: the file was missing or already the stub.", style="dim")
        )
    return 0


def cmd_solution(args: argparse.Namespace) -> int:
    puzzle = _one(args.name)
    from checker.engine import _solutions

    text = _solutions.reference(puzzle)
    console = _console()
    root = Path(args.dir)
    assigned = _workspace.assignment(root) if root.is_dir() else None
    if assigned is not None and assigned.variants:
        return _variant_solution(root, assigned, puzzle, text, args.force, console)
    if not args.force:
        status = _current_status(root, puzzle, console)
        if status != "pass":
            console.print(Text(_not_yet(root, puzzle, status), style="yellow"))
            return 1
    console.print(_solutions.SolutionView(puzzle, text, forced=args.force), crop=False)  # code lines whole
    return 0


def _variant_solution(
    root: Path, assigned: _workspace.Assigned, published: _catalog.Puzzle, text: str, force: bool, console: Console
) -> int:
    """`solution` in a student's workspace with variants: the installed kit has only the
    published puzzle's reference answer, shown once the student's own variant passes (`--force`
    included: whatever the kit shows, a student can see), with a note on how theirs differs."""
    from checker.engine import _solutions

    mine = assigned.variant_of(published)
    status = _current_status(root, mine, console)
    if status != "pass":
        message = _not_yet(root, mine, status, variants=True)
        if force:
            message = f"--force does not apply in a student's workspace (assignment variants are on). {message}"
        console.print(Text(message, style="yellow"))
        return 1
    canonical = ", ".join(f"{n}={v}" for n, v in _catalog.all_choices(published)[0])
    if not mine.variant:
        console.print(
            Text(
                f"{published.name} has no variants: yours is the published puzzle, and this is its reference answer.",
                style="bold",
            )
        )
    else:
        console.print(
            Text.assemble(
                ("Your variant differs: ", "bold yellow"),
                f"below is the reference answer to the published {published.name} ({canonical}), not to yours "
                f"({_variants.label(mine)}): "
                "it is wrong for your variant. Yours passes already: compare the two.",
            )
        )
    console.print()
    console.print(
        _solutions.SolutionView(published, text, published=bool(mine.variant)), crop=False
    )  # code lines whole
    if mine.variant and mine.why:
        console.print(Text("Why yours is right", style="bold"))
        console.print(Padding(Text(mine.why), (0, 0, 0, 2)))
    return 0


def _current_status(root: Path, puzzle: _catalog.Puzzle, console: Console) -> str:
    """The status of the learner's answer, checking it now when the recorded one is stale."""
    found = find_answers(root) if root.is_dir() else {}
    status = _workspace.status_of(
        root, puzzle.name, found, _state.verdicts(root), _workspace.choices(root) if root.is_dir() else None
    )
    if status != "unchecked":
        return status
    console.print(Text(f"Your answer to {puzzle.name} changed since its last check: checking it now.", style="dim"))
    check = parser().parse_args(["check", puzzle.name, "--dir", str(root)])
    if int(check.run(check)) == 0:
        return "pass"
    console.print()
    again = _workspace.status_of(root, puzzle.name, find_answers(root), _state.verdicts(root), _workspace.choices(root))
    return again if again != "unchecked" else "fail"


def _not_yet(root: Path, puzzle: _catalog.Puzzle, status: str, variants: bool = False) -> str:
    """Why the reference answer is not shown, and what to do (`variants`: in a student's
    workspace with variants, where `--force` is no way round)."""
    name = puzzle.name
    paths = find_answers(root).get(name, []) if root.is_dir() else []
    if len(paths) > 1:
        found = (
            f"there are {len(paths)} files named {name}.py under {root}: "
            + ", ".join(str(p) for p in paths)
            + "; keep one"
        )
    elif status == "todo" and paths:
        found = f"{paths[0]} is still the untouched stub: fill in {puzzle.answer_name} below the marker line"
    elif status == "todo":
        found = f"there is no {name}.py under {root} (expected at {root / _stubs.relative_path(puzzle)})"
    else:
        found = (
            f"the last check of {paths[0] if paths else name} says {status} (`jacpuzzles check {name}` shows what "
            f"is wrong, `jacpuzzles hint {name}` gives a hint)"
        )
    if variants:
        return (
            f"The reference answer to the published {name} is shown once your own variant passes; {found}. "
            f"Ask again when `jacpuzzles check {name}` passes. Your variant's own answer is in no installed kit: it is "
            "yours to find."
        )
    return (
        f"The reference answer to {name} is shown once your answer passes; {found}. "
        f"Ask again when `jacpuzzles check {name}` passes. Instructors: `jacpuzzles solution {name} --force`."
    )


def _one(name: str, root: Path | None = None) -> _catalog.Puzzle:
    """Puzzle `name` as the workspace holding `root` has it (the student's own variant in an
    assignment workspace); the published puzzle when `root` is None."""
    return puzzle_named(name) if root is None else _workspace.puzzle_in(root, name)


def _version() -> str:
    """The installed kit's version (`unknown` in a source tree that was never installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("jacpuzzles")
    except PackageNotFoundError:
        return "unknown"


class _VersionAction(argparse.Action):
    """`--version`, looked up only when asked for: the package metadata costs every other command
    a fiftieth of a warm check."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        sys.stdout.write(f"jacpuzzles {_version()}\n")  # as argparse's own `version` action: on stdout
        parser.exit()


def parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for the docs and the tests)."""
    top = argparse.ArgumentParser(
        prog="jacpuzzles",
        description="Jacobian puzzles: fill in `jac`, check it against jax.jacfwd.",
    )
    top.add_argument("--version", action=_VersionAction, nargs=0, help="show the kit's version and exit")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_dir(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument(
            "--dir",
            default=None,
            help="folder holding answer files <puzzle>.py, at any depth (default: the workspace you are in, else "
                 "./puzzles)",
        )
        return with_packs(p)

    def with_packs(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
        p.add_argument("--pack", action="append", default=None, metavar="DIR",
                       help="a puzzle pack: a folder with pack.toml and solutions/ (`jacpuzzles docs packs`), its "
                            "chapter after the kit's; repeatable")
        return p

    p = with_dir(sub.add_parser("check", help="check answers (all puzzles when none is named)"))
    p.add_argument("names", nargs="*", metavar="NAME")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout instead of the report")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the input draws (default: %(default)s)")
    p.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per call of jac (default: %(default)s)"
    )
    p.set_defaults(run=cmd_check)
    with_dir(sub.add_parser("list", help="puzzles by chapter, with status and progress")).set_defaults(run=cmd_list)
    p = with_dir(sub.add_parser("show", help="a puzzle's statement, f and the signature of jac"))
    p.add_argument("name", metavar="NAME")
    p.add_argument(
        "--page", action="store_true", help="the puzzle's whole page: also what your answer is tried on and every hint"
    )
    p.add_argument(
        "--svg", metavar="FILE", help="write the expected Jacobian (with --mine: yours beside it) as an SVG picture"
    )
    p.add_argument(
        "--mine",
        action="store_true",
        help="with --svg: check your answer file and draw your Jacobian, wrong entries crossed",
    )
    p.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help="with --svg: seed of the draws (default: %(default)s)"
    )
    p.set_defaults(run=cmd_show)
    p = with_dir(
        sub.add_parser(
            "notebook", help="write a Jupyter notebook of a chapter's puzzles, with your answers and check cells"
        )
    )
    p.add_argument("out", metavar="OUT.ipynb")
    p.add_argument("--blank", action="store_true", help="stubs in every answer cell, not your answers")
    p.add_argument("--chapter", default="autodiff", help="the chapter (default: %(default)s)")
    p.add_argument(
        "--install-from",
        metavar="URL_OR_WHEEL",
        default=None,
        help="where the set-up cell installs the kit from on a fresh kernel (Colab): a URL, a git+ URL or a wheel "
             "(default: where this kit was installed from)",
    )
    p.set_defaults(run=cmd_notebook)
    p = with_dir(sub.add_parser("hint", help="reveal the next hint for a puzzle"))
    p.add_argument("name", metavar="NAME")
    p.set_defaults(run=cmd_hint)
    p = with_dir(sub.add_parser("watch", help="re-check each answer file when it is saved"))
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="seed of the input draws (default: %(default)s)")
    p.add_argument(
        "--timeout", type=float, default=DEFAULT_TIMEOUT, help="seconds per call of jac (default: %(default)s)"
    )
    p.set_defaults(run=cmd_watch)
    p = with_packs(
        sub.add_parser("init", help="write a fresh set of stubs into DIR: a workspace of your own, anywhere")
    )
    p.add_argument("target", metavar="DIR", help="the folder to make or fill; it must hold no answer files yet")
    p.add_argument(
        "--classroom",
        action="store_true",
        help="also write .github/workflows/classroom.yml and a .gitignore: a GitHub Classroom template repository",
    )
    p.add_argument(
        "--assignment",
        metavar="FILE",
        help="your instructor's assignment file: with --student, your own variant of each of its puzzles",
    )
    p.add_argument(
        "--student", metavar="ID", help="your student id, as your instructor's roster has it (with --assignment)"
    )
    p.set_defaults(run=cmd_init)
    p = with_dir(sub.add_parser("reset", help="put one puzzle's stub back, keeping your file as a backup"))
    p.add_argument("name", metavar="NAME")
    p.set_defaults(run=cmd_reset)
    p = with_dir(sub.add_parser("solution", help="the reference answer and why it is right, once yours passes"))
    p.add_argument("name", metavar="NAME")
    p.add_argument("--force", action="store_true", help="show it without looking at your answer (for instructors)")
    p.set_defaults(run=cmd_solution)
    p = with_packs(sub.add_parser("grade", help="grade a class: one folder or .zip per student, out of process "
                                                "(`jacpuzzles docs grading`)"))
    p.add_argument("submissions", nargs="?", metavar="SUBMISSIONS",
                   help="folder holding one folder or .zip per student")
    p.add_argument("--out", metavar="OUT", help="folder for the grades, reports and journal (grading a class)")
    # default=None: a flag given wins over --assignment's value, which wins over the default shown.
    p.add_argument("--assignment", metavar="FILE",
                   help="TOML file: the puzzles that count and their points, seed, limits (`jacpuzzles docs grading`; "
                        "a template: `jacpuzzles docs templates/assignment.toml`)")
    p.add_argument("--jobs", type=int, default=None, help="submissions graded at a time (default: 2)")
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        help=f"seconds per import or call of an answer (default: {DEFAULT_TIMEOUT:g})",
    )
    p.add_argument(
        "--memory-mb",
        type=int,
        default=None,
        help="megabytes a submission's code may allocate, 0 for no limit (default: 1024)",
    )
    seeds = p.add_mutually_exclusive_group()
    seeds.add_argument("--seed", type=int, default=None, help=f"seed of the input draws (default: {DEFAULT_SEED}); "
                       "other users of the machine can read it in the process list: --seed-file keeps it private")
    seeds.add_argument(
        "--seed-file", metavar="FILE", help="read the seed of the input draws from FILE (digits only; chmod 600 it)"
    )
    p.add_argument("--key-file", metavar="FILE", help="the key that signs and checks OUT's entries (made when missing; "
                   "default: OUT/.jacpuzzles-key); give every shard and --merge the same one")
    p.add_argument(
        "--shard",
        metavar="K/N",
        help="grade only shard K of N (1-based; by a hash of each submission's name), for a CI matrix",
    )
    p.add_argument(
        "--merge",
        action="store_true",
        help="no grading: write OUT's grades.csv, junit.xml and summary.* from the shards' <submission>.json copied "
             "into OUT",
    )
    # CI front-ends (docs/autograding.md): one submission, written where the platform reads.
    p.add_argument(
        "--github-classroom",
        nargs="?",
        const=".",
        metavar="DIR",
        help="grade the repository in DIR (default: .) as one submission; write GitHub Classroom's `result` to "
             "$GITHUB_OUTPUT",
    )
    p.add_argument(
        "--gradescope", action="store_true", help="grade /autograder/submission; write /autograder/results/results.json"
    )
    p.add_argument(
        "--gradescope-root",
        default="/autograder",
        metavar="DIR",
        help="--gradescope: the folder holding submission/ and results/ (default: %(default)s)",
    )
    p.add_argument(
        "--fail-under",
        type=float,
        metavar="SCORE",
        help="exit code 1 when a submission scores below SCORE points or is ungradable",
    )
    p.add_argument(
        "--trust-submissions",
        action="store_true",
        help="grade even where submissions cannot be confined (no namespaces, no Landlock: macOS, Windows, Linux "
             "before 5.13); they can then read and write whatever you can",
    )
    p.set_defaults(run=cmd_grade)
    p = sub.add_parser("pack", help="for instructors: make or check a puzzle pack, a chapter of your own "
                                    "(`jacpuzzles docs packs`)")
    p.add_argument("action", choices=("new", "check"),
                   help="new: a pack with one worked example; check: what `dev check` does for the kit, for the pack")
    p.add_argument("folder", metavar="DIR", help="the pack's folder (holding pack.toml)")
    p.add_argument("--no-mutation", action="store_true", help="check: skip the mutation score (the slowest part)")
    p.set_defaults(run=cmd_pack)
    p = sub.add_parser("docs", help="print a documentation page (none named: list them); works from an installed wheel")
    p.add_argument("page", nargs="?", metavar="PAGE", help="a page's name: solving, jacobians, checker, cli, grading, "
                                                           "packs...")
    p.set_defaults(run=cmd_docs)
    p = sub.add_parser("dev", help="for maintainers: regenerate or check the files generated from the catalog, record "
                                   "TensorFlow's results")
    p.add_argument("action", choices=("generate", "check", "record-tf"))
    p.add_argument("--root", default=".", help="the repository root (default: .)")
    p.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help="record-tf: seed of the draws to record (default: %(default)s)"
    )
    p.set_defaults(run=cmd_dev)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    args = parser().parse_args(argv)
    if getattr(args, "dir", "") is None:  # no --dir: the enclosing workspace, else ./puzzles
        args.dir = str(_workspace.default_dir())
    try:
        given = getattr(args, "pack", None)
        if given is None and getattr(args, "dir", None) is not None:  # the workspace's own packs
            given = [str(p) for p in _workspace.packs(Path(args.dir))] or None
        if (
            given is None and getattr(args, "github_classroom", None) is not None
        ):  # the repository's packs, as its student uses them
            given = [str(p) for p in _workspace.packs(Path(args.github_classroom))] or None
        _use_packs(given)
        return int(args.run(args))
    except JacpuzzlesError as exc:
        # One line: paths in it are whole, copyable, and found by a search of the log.
        _console(stderr=True).print(Text(f"jacpuzzles: {exc}", style="red"), soft_wrap=True)
        return exc.exit_code
    except KeyboardInterrupt:
        _console(stderr=True).print(
            Text("jacpuzzles: interrupted (Ctrl-C); nothing was recorded for this run", style="yellow")
        )
        return INTERRUPTED


def _use_packs(folders: list[str] | None) -> None:
    """Add the packs named by `--pack` to the catalog (none: the kit's chapters alone); a pack that
    cannot be used is a `PackError` or `CatalogError`, each a usage error (exit code 2)."""
    if not folders and not _catalog.packs():
        return
    _catalog.use_packs([Path(f) for f in folders or ()])


def cmd_docs(args: argparse.Namespace) -> int:
    from checker.learner import _docs

    console = _console()
    if args.page is None:
        table = Table(box=None, show_header=False, pad_edge=False)
        for name, path in _docs.pages().items():
            title = next((line.lstrip("# ").strip() for line in path.read_text(encoding="utf-8").splitlines()
                          if line.startswith("# ")), "")
            table.add_row(Text(name, style="bold"), Text(title))
        console.print(Text("Pages (`jacpuzzles docs PAGE` prints one):"))
        console.print(table)
        return 0
    text, path = _docs.page(args.page)
    if path.suffix == ".md":
        from rich.markdown import Markdown

        console.print(Markdown(text, hyperlinks=False))
    else:
        from rich.syntax import Syntax

        console.print(Syntax(text, "toml" if path.suffix == ".toml" else "yaml", word_wrap=True))
    return 0


def cmd_pack(args: argparse.Namespace) -> int:
    from checker.authoring import _packs

    console = _console()
    folder = Path(args.folder)
    if args.action == "new":
        written = _packs.new(folder)
        for path in written:
            console.print(Text(f"wrote {path}"))
        console.print(Text(f"next: `jacpuzzles pack check {folder}`, then edit pack.toml and add your puzzles "
                           "(`jacpuzzles docs packs`)"))
        return 0
    with console.status(f"checking the pack {folder}…"):
        report = _packs.check(folder, mutation=not args.no_mutation)
    console.print(_packs.ReportView(report))
    return 1 if report.problems else 0


def entry() -> None:
    """The console script."""
    sys.exit(main())
