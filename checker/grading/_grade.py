"""Class grading: `jacpuzzles grade SUBMISSIONS --out OUT`.

The grader draws the inputs and computes the expected Jacobians once per puzzle for the whole
class, runs each submission's answers in worker processes of its own (`_sandbox`), judges what
came back here, and journals each submission in `OUT/<submission>.json` as soon as it is graded,
keyed by a digest of its answer files and of everything grading depends on. A re-run (after a
crash, `kill -9` or Ctrl-C) grades only what is missing or changed, and ends with the same files.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import hashlib
import json
import os
import re
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from checker.engine import (
    _assignment,
    _catalog,
    _numerics,
    _oracles,
    _report,
    _sampling,
    _solutions,
    _source_scan,
    _stubs,
    _variants,
)
from checker.engine._assignment import (
    Assignment,
    BadSetup as BadSetup,  # defined there, raised and caught as `_grade.BadSetup`
)
from checker.engine._catalog import Choices, Puzzle, puzzle_named
from checker.engine._runner import Run
from checker.engine._settings import DEFAULT_SEED
from checker.engine._verdict import Diagnosis, Kind, Status, Verdict, counted, with_texts
from checker.grading import _disk, _gradebook, _journal, _sandbox, _scratch, _submissions
from checker.grading._sandbox import Limits
from checker.grading._shard import Shard

GRADER_VERSION = 3  # bump when grading changes what a journaled result would be


SCAN_CAP = _submissions.FILE_CAP  # bytes of an answer file the grader reads; a larger one is refused unread


@dataclass(frozen=True)
class Plan:
    """One submission, ready to grade: its answers located, its journal key, or why it can't be.

    `refused` holds the answers that are not run (autodiff, the kit's code, too large), with why.
    """

    name: str
    key: str
    answers: _submissions.Answers | None
    reason: str | None = None
    refused: dict[str, str] = field(default_factory=dict)
    setup: str = ""  # digest of the seed, puzzles, points and limits: `--merge` refuses a mix
    student: str = ""  # with variants on: the student id the variants are drawn for ("" otherwise)
    variants: dict[str, Choices] = field(default_factory=dict)  # puzzle -> the choices graded (variants on)
    flag: str = ""  # what does not match in its workspace record (variants on), for the instructor
    # where it was read from: read again when the grader's copy changed
    submission: _submissions.Submission | None = None
    names: tuple[str, ...] = ()  # the assignment's puzzles it was read for
    # puzzle -> `_evidence.file_digest` of its answer, as read (variants on)
    answered: dict[str, str] = field(default_factory=dict)
    # Refused whole for its content (a zip that cannot be read, folders too deep, too many files),
    # and so graded as an error on every puzzle, 0 points, rather than left ungradable: a CI
    # front-end's one submission, whose "not graded" is kept for the grader's own failures, which
    # a student could otherwise choose (red team RT32).
    scored_refusal: bool = False

    def runnable(self) -> dict[str, str]:
        """The answers sent to a worker: puzzle -> path relative to the submission."""
        files = self.answers.files if self.answers is not None else {}
        return {name: path for name, path in files.items() if name not in self.refused}

    def slot(self, name: str) -> str:
        """The slot puzzle `name` is graded on: its name, or its variant's (`_slot`)."""
        return _slot(name, self.variants.get(name, ()))


def _slot(name: str, chosen: Choices) -> str:
    """Where a variant's draws and expected Jacobians are kept: the puzzle's name for the
    canonical variant (as without variants), `name@k` for its k-th variant."""
    return name if not chosen else f"{name}@{_variants.choices(name).index(chosen)}"


def _slot_puzzle(slot: str) -> Puzzle:
    """The concrete puzzle of a slot."""
    name, _, k = slot.partition("@")
    return _variants.variant(name, _variants.choices(name)[int(k)]) if k else puzzle_named(name)


def grade_class(submissions: Path, out: Path, jobs: int, limits: Limits, seed: int, console: Console, progress: Console,
                assignment: Assignment | None = None, shard: Shard | None = None, key_file: Path | None = None,
                trust: bool = False) -> int:
    """Grade every submission in `submissions` into `out`; returns the exit code (0: done).

    `progress` shows the progress bar (stderr), `console` the summary table (stdout). Only the
    `assignment`'s puzzles are run and counted (default: the whole catalog); with a `shard`, only
    the submissions of that shard are graded and written. Entries are signed with the class's
    key (`key_file`, default `OUT/.jacpuzzles-key`); an earlier entry is kept only when its
    signature checks, and the class-wide files are written from this run's records and those.
    Where workers cannot be confined (neither namespaces nor Landlock), raises `BadSetup` unless
    `trust` (`--trust-submissions`).
    """
    _check_setup(submissions, out, jobs, limits)
    signer = _signer(out, key_file)
    for stale in out.glob(".*.partial"):  # a write cut short by `kill -9`
        stale.unlink()
    points = (assignment or _assignment.default()).points()
    names = list(points)
    found, skipped = _submissions.discover(submissions)
    if assignment is not None and assignment.variants:
        found, taken = _roster_clashes(found, assignment)
        skipped = sorted([*skipped, *taken], key=lambda s: s.name)
    if shard is not None:
        progress.print(f"shard {shard}: {sum(shard.holds(s.name) for s in found)} of the "
                       f"{counted(len(found), 'submission')}")
        found = [s for s in found if shard.holds(s.name)]
        skipped = [s for s in skipped if shard.holds(s.name)]
    with _disk.scratch_folder() as scratch:
        chosen = assignment if assignment is not None and assignment.variants else None
        sealed = signer.sealed(seed)
        plans = [_plan(s, Path(scratch) / f"{k}", names, points, sealed, limits, chosen) for k, s in enumerate(found)]
        records: dict[str, dict[str, Any]] = {}  # submission -> its entry: verified from OUT, or written by this run
        todo = []
        for plan in plans:
            doc, why = _resumed(out, plan, signer)
            if doc is not None:
                records[plan.name] = doc
                continue
            todo.append(plan)
            if why:
                _gradebook.print_neutralised(progress, Text.assemble(
                    ("not trusted ", "yellow"), f"{_submissions.shown(plan.name)}.json in {out}: {why}; graded again"))
        with _numerics.pinned():
            _grade_all(todo, Path(scratch), out, names, points, seed, limits, jobs, progress,
                       _hidden(scratch, submissions, out), unseen=(submissions, out),
                       evidence=([p for p in plans if not _evidenced(out, p, signer, records)]
                                 if chosen is not None else None),
                       signer=signer, records=records, trust=trust)
    if chosen is not None:
        from checker.grading import _evidence

        _evidence.write(out, [p.name for p in plans], signer)
        progress.print(f"integrity report (evidence for you to read, not verdicts): {out / 'integrity.md'}")
    for skip in skipped:  # names a student chose: no line of them is a CI runner's command
        _gradebook.print_neutralised(progress, Text.assemble(("skipped ", "yellow"),
                                                             f"{_submissions.shown(skip.name)}: {skip.reason}"))
    docs = [records[p.name] for p in plans]  # never re-read from OUT: a worker may have written there since
    docs += [_gradebook.skipped(_submissions.shown(s.name), s.reason, points) for s in skipped]
    docs.sort(key=lambda d: str(d["submission"]))
    unlisted = _off_roster(docs, assignment)
    for entry in unlisted:
        _gradebook.print_neutralised(progress, Text.assemble(("not on the roster ", "yellow"),
                                                             f"{entry['submission']}: {entry['note']}"))
    _write_gradebook(out, docs, names, unlisted)
    _gradebook.print_neutralised(console, _table(docs))
    console.print(f"graded {counted(len(todo), 'submission')}, {len(plans) - len(todo)} unchanged since the last run; "
                  f"results in {out}")
    return 0


def merge_class(out: Path, assignment: Assignment | None, console: Console, key_file: Path | None = None) -> int:
    """Write the class-wide files of `out` from the `<submission>.json` entries in it (copied there
    from every shard's `OUT`), byte for byte those of one unsharded run; returns the exit code.
    Every entry must carry the signature of the key the shards were graded with (`key_file`,
    default `OUT/.jacpuzzles-key`): one that does not is refused, with its name."""
    names = list((assignment or _assignment.default()).points())
    if not out.is_dir():
        raise BadSetup(f"--out {out} is not a folder: copy every shard's OUT/*.json and OUT/*.txt into one folder, "
                       "then merge it")
    signer: _journal.Key | None = None  # read at the first entry: a folder without any says so first
    docs, setups, untrusted = [], set(), []
    for path in sorted(out.glob("*.json"), key=lambda p: p.stem):
        raw = _journal.read_plain(path)
        try:
            doc = json.loads(raw.decode("utf-8")) if raw is not None else None
        except ValueError as exc:
            raise BadSetup(f"cannot read the entry {path}: {exc}; copy it again from its shard's OUT") from None
        if (not isinstance(doc, dict) or doc.get("submission") != path.stem
                or doc.get("status") not in (_gradebook.GRADED, _gradebook.UNGRADABLE)):
            continue  # summary.json, or not an entry of ours
        if signer is None:
            try:
                signer = _journal.existing(out, key_file)
            except _journal.KeyProblem as exc:
                raise BadSetup(str(exc)) from None
        doc, why = _journal.entry(out, path.stem, signer)
        if doc is None:
            untrusted.append(f"{path.name} ({why})")
            continue
        puzzles = [r.get("puzzle") for r in doc.get("results", [])]
        if doc["status"] == _gradebook.GRADED and puzzles != names:
            raise BadSetup(f"{path.name} was graded on {counted(len(puzzles), 'puzzle')} "
                           f"({', '.join(map(str, puzzles[:3]))}…), not on the {len(names)} of this "
                           "assignment: pass the --assignment the shards were graded with")
        setups.add(str(doc.get("setup", "")))
        docs.append(doc)
    if untrusted and signer is not None:
        raise BadSetup(f"{counted(len(untrusted), 'entry', 'entries')} in {out} not signed with the key {signer.path}: "
                       f"{'; '.join(untrusted[:5])}{'…' if len(untrusted) > 5 else ''}. Pass --key-file with the key "
                       "every shard was graded with, copy those entries again from their shard's OUT, or grade those "
                       "submissions again")
    if not docs:
        raise BadSetup(f"no submission entries (<submission>.json) in {out}: copy every shard's OUT/*.json and "
                       "OUT/*.txt there first")
    if len(setups) > 1:
        raise BadSetup(f"the entries in {out} were graded with different seeds, points or limits: grade every shard "
                       "with the same --assignment, --seed, --timeout and --memory-mb")
    _write_gradebook(out, docs, names, _off_roster(docs, assignment))
    _gradebook.print_neutralised(console, _table(docs))
    console.print(f"merged {counted(len(docs), 'submission')} into {out}: grades.csv, junit.xml, summary.md, "
                  "summary.json")
    return 0


def _check_setup(submissions: Path, out: Path, jobs: int, limits: Limits) -> None:
    """Refuse arguments the grader cannot work with, before any work."""
    try:
        folder = submissions.is_dir()
        if folder:
            with os.scandir(submissions) as listing:
                next(listing, None)
    except OSError as exc:
        raise BadSetup(f"cannot read the submissions folder {str(submissions)!r}: {exc.strerror or exc}; grade as a "
                       "user who may read it, or copy it where you can") from None
    if not folder:
        raise BadSetup(f"submissions folder {str(submissions)!r} does not exist or is not a folder: pass the folder "
                       "holding one folder or .zip per student")
    if jobs < 1 or limits.timeout <= 0 or limits.memory_mb < 0:
        raise BadSetup("--jobs and --timeout must be positive, --memory-mb at least 0 (0: no limit)")
    if out.resolve().is_relative_to(submissions.resolve()):
        raise BadSetup(f"--out {out} is inside the submissions folder {submissions}, which is never written to: pick "
                       "another folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".jacpuzzles-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise BadSetup(f"cannot write grades into {out}: {exc.strerror or exc}; pass a writable --out folder") from None


def _plan(submission: _submissions.Submission, scratch: Path, names: list[str], points: dict[str, int], seed: str,
          limits: Limits, assignment: Assignment | None = None, who: str | None = None,
          score_refusal: bool = False) -> Plan:
    """Read and locate a submission's answers (copied into `scratch`), and compute its journal key.

    A submission that cannot be read is planned with the reason: a zip is journaled under a
    digest of its bytes, a folder under no key (it is read again by the next run). With an
    `assignment` whose variants are on, each puzzle is graded on the variant of the
    submission's student id (the roster's entry for `who` or its name, else that name itself):
    nothing in the submission chooses it."""
    extra = ""
    student, chosen = "", dict[str, Choices]()
    if assignment is not None and assignment.variants:
        student = assignment.student_id(who if who is not None else submission.name)
        wanted = assignment.choices(student)
        chosen = {n: _variants.variant(n, wanted.get(n)).variant for n in names}
        extra = json.dumps(["variants", assignment.seed, student, [[n, list(map(list, c))] for n, c in chosen.items()]],
                           default=str)
    setup = _key(extra and json.dumps(["variants", assignment.seed if assignment else None]), points, seed, limits)[:16]
    try:
        answers = _disk.retried(lambda: _copied(submission, names, scratch), scratch.parent,
                                "the grader could not copy a submission into its scratch folder")
    except BadSetup:
        raise
    except Exception as exc:  # noqa: BLE001 - the grader's own failure on one submission: ungradable, retried next run
        reason = f"the grader failed reading this submission: {type(exc).__name__}: {exc}"
        return Plan(submission.name, "", None, reason, setup=setup, student=student, variants=chosen)
    if isinstance(answers, _submissions.Unreadable):
        content = _submissions.fingerprint(submission.source) if not submission.source.is_dir() else ""
        return Plan(submission.name, _key(content + extra, points, seed, limits) if content else "", None,
                    answers.reason, setup=setup, student=student, variants=chosen, scored_refusal=score_refusal)
    flag = _record_flag(answers.record, student, assignment) if assignment is not None and assignment.variants else ""
    answered = {}
    if assignment is not None and assignment.variants:  # before any worker runs: the integrity report compares these
        from checker.grading import _evidence

        answered = {n: _evidence.file_digest(answers.root / rel) for n, rel in answers.files.items()}
    return Plan(submission.name, _key(answers.digest + extra + flag, points, seed, limits), answers,
                refused=_refused(answers), setup=setup, student=student, variants=chosen, flag=flag,
                submission=submission, names=tuple(names), answered=answered)


def _copied(submission: _submissions.Submission, names: list[str],
            scratch: Path) -> _submissions.Answers | _submissions.Unreadable:
    """The submission read into a fresh `scratch` folder (what an earlier try left there removed)."""
    if scratch.exists():
        _scratch.remove_tree(scratch)
    scratch.mkdir(mode=0o700)
    return _submissions.read(submission, names, scratch)


def _record_flag(record: _submissions.Record | None, student: str, assignment: Assignment) -> str:
    """What does not match in a submission's workspace record, in words ("" when nothing): a
    recorded student id that is not the submission's, an assignment digest that is not this
    assignment's, or a record that cannot be read. Never changes a score or a variant."""
    if record is None:
        return ""
    if record.problem:
        return f"unreadable workspace record: {record.problem}"
    notes = []
    if record.student is not None and record.student != student:
        notes.append(f"its workspace record ({record.path}) was made for student {record.student!r}, not {student!r}")
    if record.digest is not None and record.digest != assignment.digest:
        notes.append(f"its workspace record ({record.path}) was made from another assignment file (digest "
                     f"{record.digest!r}, this one is {assignment.digest!r})")
    return "; ".join(notes)


def _refused(answers: _submissions.Answers) -> dict[str, str]:
    """The answers not to run, with why: they use autodiff or the kit's code, or are too large to read."""
    refused = {}
    for name, size in answers.oversized.items():
        refused[name] = (f"{answers.files[name]} is {size / 1024 / 1024:.1f} MB: answer files are limited to "
                         f"{SCAN_CAP // 1024 // 1024} MB; it was not run. Submit only your answer")
    for name, rel in answers.files.items():
        if name in refused:
            continue
        try:
            source = (answers.root / rel).read_bytes().decode("utf-8")  # the grader's own copy, at most SCAN_CAP bytes
        except UnicodeDecodeError:
            continue  # the worker reports it as not UTF-8, with the byte
        except OSError as exc:
            refused[name] = f"cannot read {rel}: {exc.strerror or exc}"
            continue
        findings = _source_scan.scan(source)
        if findings:
            refused[name] = _source_scan.describe(findings, rel)
    return refused


def _key(content: str, points: dict[str, int], seed: str, limits: Limits) -> str:
    """What a journaled result depends on: the answers, the puzzles and points, the seed (as
    `Key.sealed` gives it), limits, kit."""
    text = json.dumps([GRADER_VERSION, content, points, seed, limits.timeout, limits.memory_mb,
                       _numerics.settings_digest(), _catalog_digest()])
    return hashlib.sha256(text.encode()).hexdigest()


def _catalog_digest() -> str:
    """The catalog's files and the packs' in use: an edited `f`, domain or shape gives other verdicts."""
    digest = hashlib.sha256()
    for path in sorted(_catalog._DATA.glob("*.toml")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    for _, text in _catalog.packs():
        digest.update(b"pack\0" + text.encode())
    return digest.hexdigest()


def _signer(out: Path, key_file: Path | None) -> _journal.Key:
    """The class's signing key, as a `BadSetup` when it cannot be had."""
    try:
        return _journal.key(out, key_file)
    except _journal.KeyProblem as exc:
        raise BadSetup(str(exc)) from None


def _resumed(out: Path, plan: Plan, signer: _journal.Key) -> tuple[dict[str, Any] | None, str]:
    """This submission's entry in `out` when it is this grader's (its signature checks) and
    under the same key; else None, and why it is not trusted ("" when there is simply none, or
    the submission changed)."""
    if not plan.key:
        return None, ""
    doc, why = _journal.entry(out, plan.name, signer)
    if doc is None:
        return None, why
    if doc.get("submission") != plan.name or doc.get("key") != plan.key:
        return None, ""
    return doc, ""


def _grade_all(todo: list[Plan], scratch: Path, out: Path, names: list[str], points: dict[str, int], seed: int,
               limits: Limits, jobs: int, console: Console, hidden: tuple[str, ...] = (), advice: bool = True,
               unseen: tuple[Path, ...] = (), evidence: list[Plan] | None = None, *,
               signer: _journal.Key, records: dict[str, dict[str, Any]], trust: bool = False) -> None:
    """Grade `todo`, `jobs` at a time, journaling each as it finishes (signed by `signer`) and
    adding its entry to `records` (which holds the verified entries of earlier runs).

    `hidden`: the grader's paths, never shown to a student; `advice`: print set-up notes (not
    where students read); `unseen`: folders of the grader's a worker must not see (SUBMISSIONS,
    OUT); the scratch folder and the cache of expected Jacobians are unseen too. `evidence`
    (variants on): the graded submissions whose failing answers are then also run on the
    puzzle's other variants, for the integrity report (`_evidence`). `trust`: grade even where
    no worker can be confined (`--trust-submissions`), saying what is then unprotected.
    """
    needed = _needed(todo, names, evidence or [])
    draws = {n: _sampling.draws(_slot_puzzle(n), seed) for n in needed}
    expected = _expected(needed, draws)
    for note in _oracle_notes(expected) if advice else []:
        console.print(Text.assemble(("note: ", "yellow"), note))  # set-up advice: for the instructor, not the students
    sandbox: _sandbox.Pool | str | None = None
    if needed:
        try:
            limits = dataclasses.replace(limits, threads=_sandbox.thread_limit(jobs))
        except _sandbox.TooFewTasks as exc:
            raise BadSetup(str(exc)) from None
        cache = _oracles.cache_dir()
        try:
            others = {slot: (slot.partition("@")[0], _slot_puzzle(slot).variant) for slot in needed if "@" in slot}
            hide = (*unseen, *([cache] if cache is not None else []))
            # Another run's submission may fill the disk for a moment (red team RT26): tried again.
            sandbox = _disk.retried(lambda: _sandbox.Pool(scratch, draws, limits, hidden=hide, variants=others or None),
                                    scratch, "the grader could not start its grading processes there")
        except _sandbox.WorkerFailure as exc:
            sandbox = str(exc)  # every submission is ungradable, with the reason, and retried next run
        if isinstance(sandbox, _sandbox.Pool) and sandbox.unconfined():
            if not trust:
                sandbox.close()
                raise BadSetup(_refused_unconfined(sandbox.unconfined()))
            console.print(Text(f"--trust-submissions: grading unconfined: {sandbox.unconfined()}", style="red"),
                          soft_wrap=True)
        if isinstance(sandbox, _sandbox.Pool):
            if advice:  # the instructor's console; a student's CI log gets no set-up notes
                console.print(Text(sandbox.isolation(), style="yellow" if sandbox.missing else "dim"), soft_wrap=True)
            try:
                failed = _prove(sandbox, needed[0].partition("@")[0], draws, expected)
            except BaseException:
                sandbox.close()
                raise
            if failed is not None:
                sandbox.close()
                raise BadSetup(failed)
    columns = (TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))
    try:
        with (Progress(*columns, console=console, transient=False) as progress,
              concurrent.futures.ThreadPoolExecutor(jobs) as threads):
            task = progress.add_task("", total=len(todo))
            futures = {threads.submit(_run, plan, sandbox): plan for plan in todo}
            try:
                for future in concurrent.futures.as_completed(futures):
                    plan = futures[future]
                    outcome = future.result()
                    try:
                        records[plan.name] = _write_entry(out, plan, outcome, draws, expected, points, seed, signer,
                                                          hidden)
                    except _gradebook.CannotWrite:
                        if not isinstance(sandbox, _sandbox.Pool):
                            raise
                        # A classmate's files may fill the disk the results folder shares with the
                        # scratch folder while it runs (red team RT18): once more, when no job runs.
                        with sandbox.alone():
                            records[plan.name] = _write_entry(out, plan, outcome, draws, expected, points, seed,
                                                              signer, hidden)
                    progress.update(task, advance=1, description=escape(_submissions.shown(plan.name)))
                if evidence:
                    memo: dict[tuple[str, str], str] = {}  # (slot, answer file's digest) -> what it gave there
                    gathered = {threads.submit(_gather, plan, records[plan.name], sandbox, out, draws, expected, seed,
                                               signer, memo): plan for plan in evidence}
                    for done in concurrent.futures.as_completed(gathered):
                        done.result()
            except BaseException:
                if isinstance(sandbox, _sandbox.Pool):
                    sandbox.stop()
                raise
    finally:
        if isinstance(sandbox, _sandbox.Pool):
            sandbox.close()


def _refused_unconfined(why: str) -> str:
    """Why `grade` will not run submissions here, and what to do instead."""
    return (f"grade refuses to run submissions here: {why}. Grade on Linux 5.13 or later with Landlock enabled (on "
            "macOS or Windows: in a Linux VM or container), or as root where namespaces are allowed; or, for code you "
            "trust, pass --trust-submissions to grade unconfined anyway (`jacpuzzles docs grading`, section "
            "\"The threat model, as built\")")


def _needed(todo: list[Plan], names: list[str], evidence: list[Plan]) -> list[str]:
    """The slots some answer runs on, in catalog order: each plan's puzzles on its own
    variants; every variant of the puzzles `evidence` answers; and the first puzzle's canonical
    variant, which the kit's reference answer is proved on."""
    found = {p.slot(n) for p in todo for n in p.runnable()}
    for plan in evidence:
        for name in plan.runnable():
            found |= {_slot(name, c) for c in _variants.choices(name)}
    if found:
        found.add(min(found, key=lambda s: names.index(s.partition("@")[0])).partition("@")[0])
    return sorted(found, key=lambda s: (names.index(s.partition("@")[0]), int(s.partition("@")[2] or 0)))


def _gather(plan: Plan, doc: dict[str, Any], sandbox: _sandbox.Pool | str | None, out: Path,
            draws: dict[str, tuple[_sampling.Draw, ...]], expected: dict[str, Any],
            seed: int, signer: _journal.Key, memo: dict[tuple[str, str], str] | None = None) -> None:
    """Run each answer of `plan` that fails its own variant on every variant of its puzzle,
    and write what it fits (and the wrong Jacobians it returns) to `OUT/.evidence/<name>.json`,
    for the integrity report. Written only once the runs are complete (else retried next run).
    `memo` keeps what an answer file (by the digest of its bytes) gave on a slot, across the
    class: a file handed in by many (a published answer) runs once per slot."""
    from checker.engine._engine import _verdict
    from checker.grading import _evidence

    files = plan.answers.files if plan.answers is not None else {}
    failing = [r["puzzle"] for r in doc.get("results", [])
               if r.get("status") in (Status.FAIL.value, Status.ERROR.value) and r.get("puzzle") in plan.runnable()]
    memo = memo if memo is not None else {}
    # as read from the submission
    digests = {n: plan.answers.sums[files[n]] if plan.answers is not None else "" for n in failing}
    wanted = [(_slot(n, c), n) for n in failing for c in _variants.choices(n)]
    items = [(slot, files[n]) for slot, n in wanted if (slot, digests[n]) not in memo]
    runs: list[Run] = []
    if items and isinstance(sandbox, _sandbox.Pool) and plan.answers is not None:
        try:
            # Its own time bound, as the submission's: (2P + 1) budgets for its P failing
            # puzzles, whatever the number of variants they are run on (red team, round 4).
            runs = sandbox.run(plan.answers.root, items, budgets=2 * len(failing) + 1, sums=plan.answers.sums)
        except _sandbox.WorkerFailure:
            return
    elif items:
        return
    for (slot, _), run in zip(items, runs):
        verdict = _verdict(_slot_puzzle(slot), draws[slot], run, seed, expected.get(slot))
        wrong_blocks = run.problem is None and bool(run.answers)
        gave = "fits" if verdict.status == Status.PASS else (f"wrong {_evidence.fingerprint(run.answers)}"
                                                             if wrong_blocks else "")
        memo[(slot, digests[slot.partition("@")[0]])] = gave
    fits: dict[str, list[str]] = {}
    wrong: dict[str, dict[str, str]] = {}
    for slot, name in wanted:
        gave = memo.get((slot, digests[name]), "")
        if gave == "fits":
            fits.setdefault(name, []).append(slot)
        elif gave.startswith("wrong "):
            wrong.setdefault(name, {})[slot] = gave.partition(" ")[2]
    entry = _evidence.entry(plan.name, plan.key, plan.student, {n: plan.slot(n) for n in plan.variants},
                            {n: _variants.label(_slot_puzzle(plan.slot(n))) for n in plan.variants},
                            {r["puzzle"]: r["status"] for r in doc.get("results", [])}, fits, wrong, plan.answered,
                            plan.flag)
    _evidence.store(out, plan.name, entry, signer)


def _roster_clashes(found: list[_submissions.Submission],
                    assignment: Assignment) -> tuple[list[_submissions.Submission], list[_submissions.Skipped]]:
    """The submissions to grade, and those skipped because their name is not on the roster but is
    the id the roster gives another student: graded, they would get that student's variants (red
    team, round 4)."""
    listed = dict(assignment.students)
    ids = {student: name for name, student in listed.items()}
    kept, taken = [], []
    for submission in found:
        owner = ids.get(submission.name)
        if submission.name not in listed and owner is not None:
            taken.append(_submissions.Skipped(submission.name, (
                f"its name is not on the assignment's roster, and is the student id of {owner!r}: graded, it would get "
                f"that student's variants; rename it to its student's roster name, or add it to [students]")))
        else:
            kept.append(submission)
    return kept, taken


def _evidenced(out: Path, plan: Plan, signer: _journal.Key, records: dict[str, dict[str, Any]]) -> bool:
    """Whether `out` already holds this submission's evidence under the same key, signed, beside
    its verified entry (`records`)."""
    from checker.grading import _evidence

    return bool(plan.key) and plan.name in records and _evidence.stored_key(out, plan.name, signer) == plan.key


def _prove(sandbox: _sandbox.Pool, name: str, draws: dict[str, tuple[_sampling.Draw, ...]],
           expected: dict[str, Any]) -> str | None:
    """Run the kit's reference answer for `name` as a student's answer runs, before grading
    anyone: None when it passes, else one line saying why grading cannot work and what to do."""
    from checker.engine._engine import _verdict

    folder = _solutions.folder()
    puzzle = puzzle_named(name)
    rel = _stubs.relative_path(puzzle)
    if folder is None or not (folder / rel).is_file():
        return None  # an installation without reference answers: nothing to prove with
    def attempt() -> list[Run] | str:
        with tempfile.TemporaryDirectory(prefix="proof-", dir=sandbox.scratch) as tmp:
            _scratch.folders((Path(tmp) / rel).parent, Path(tmp))
            _scratch.write(Path(tmp) / rel, (folder / rel).read_bytes())
            try:
                return sandbox.run(Path(tmp), [(name, str(rel))])
            except _sandbox.WorkerFailure as exc:
                return f"the grader's workers cannot run answers on this machine: {exc}. {_ADVICE}"

    try:  # the scratch disk full for a moment: another process on this machine fills it
        runs = _disk.retried(attempt, sandbox.scratch, "the grader could not make its own files there")
    except BadSetup as exc:
        return str(exc)
    if isinstance(runs, str):
        return runs
    verdict = _verdict(puzzle, draws[name], runs[0], 0, expected.get(name))
    if verdict.status == Status.PASS:
        return None
    said = f"; the worker said: {sandbox.last_words}" if sandbox.last_words else ""
    return (f"the grader's workers cannot run answers on this machine: the reference answer for {name} got "
            f"{verdict.status.value} ({' '.join(verdict.message.split())[:300]}){said}. {_ADVICE}")


_ADVICE = ("As root, workers run as other users: Python, its packages and the kit must be readable by every user "
           "(chmod -R o+rX on their folders, or install them outside a private home), or run the grader as a plain "
           "user (`jacpuzzles docs grading`)")


def _expected(needed: list[str], draws: dict[str, tuple[_sampling.Draw, ...]]) -> dict[str, Any]:
    """The expected Jacobians of every slot some submission answers, computed once: in rounds
    holding one variant of each puzzle (the oracles key their results by puzzle name); without
    variants, one round."""
    from checker.engine._engine import _expected as expected_many

    rounds: list[list[str]] = []
    for slot in needed:
        name = slot.partition("@")[0]
        free = next((r for r in rounds if all(s.partition("@")[0] != name for s in r)), None)
        if free is None:
            rounds.append(free := [])
        free.append(slot)
    found: dict[str, Any] = {}
    for group in rounds:
        computed = expected_many([(_slot_puzzle(s), draws[s]) for s in group])
        found.update({s: computed[s.partition("@")[0]] for s in group if s.partition("@")[0] in computed})
    return found


def _run(plan: Plan, sandbox: _sandbox.Pool | str | None) -> list[Run] | str:
    """Run one submission's answers out of process (in a worker thread of the grader)."""
    runnable = plan.runnable()
    if plan.answers is None or not runnable or sandbox is None:
        return []
    if isinstance(sandbox, str):
        return sandbox
    items = [(plan.slot(name), path) for name, path in runnable.items()]
    try:
        try:
            return sandbox.run(plan.answers.root, items, sums=plan.answers.sums)
        except _sandbox.CopyChanged as exc:
            fresh = _read_again(plan, sandbox.scratch)
            if fresh is None:
                return (f"{exc}; its files also differ from what was read at the start: not graded now, graded again "
                        "by the next run")
            return sandbox.run(fresh.root, items, sums=fresh.sums)
    except _sandbox.WorkerFailure as exc:
        return str(exc)
    except Exception as exc:  # noqa: BLE001 - the grader's own failure: ungradable, never a 0
        return f"the grader failed on this submission: {type(exc).__name__}: {exc}"


def _write_entry(out: Path, plan: Plan, outcome: list[Run] | str, draws: dict[str, tuple[_sampling.Draw, ...]],
                 expected: dict[str, Any], points: dict[str, int],
                 seed: int, signer: _journal.Key, hidden: tuple[str, ...] = ()) -> dict[str, Any]:
    """Judge a submission's runs and write its `.txt`, then its `.json` (the journal entry,
    signed over both); returns the entry. What a student receives, so without the seed or the
    grader's paths (`hidden`)."""
    reason = plan.reason if plan.reason is not None else (outcome if isinstance(outcome, str) else None)
    verdicts = None
    if plan.scored_refusal and plan.reason is not None:
        message = f"no answer of this submission was run: {plan.reason}"
        verdicts = [_for_students(Verdict(n, Status.ERROR, message, (Diagnosis(Kind.MISSING, message),)), seed, hidden)
                    for n in points]
    elif reason is None:
        assert plan.answers is not None and not isinstance(outcome, str)
        try:
            verdicts = [_for_students(v, seed, hidden)
                        for v in _verdicts(plan, outcome, draws, expected, seed, list(points))]
        except Exception as exc:  # noqa: BLE001 - a judge crash is the grader's failure, not a 0
            reason = f"the grader failed while judging: {type(exc).__name__}: {exc}"
    if verdicts is None:
        # Refused for its content: journaled like a grade. The grader's own failure: no key, so
        # the next run tries again.
        key = plan.key if plan.reason is not None else ""
        doc = _gradebook.ungradable(plan.name, key, _scrub(reason or "unknown", seed, hidden), points, plan.setup)
    else:
        doc = _gradebook.graded(plan.name, plan.key, verdicts, points, plan.setup)
    if plan.student:  # variants on: whose variants were graded, and what its workspace record claims
        doc["student"] = plan.student
        doc["variants"] = {n: _variants.label(_slot_puzzle(plan.slot(n))) for n in points}
        if plan.flag:
            doc["flag"] = _scrub(plan.flag, seed, hidden)
    text = _gradebook.feedback(doc, verdicts, points)
    signed = signer.sign(doc, text.encode("utf-8", "backslashreplace"))  # the bytes `write_atomic` writes
    _gradebook.write_atomic(out / f"{plan.name}.txt", text)
    _gradebook.write_atomic(out / f"{plan.name}.json", _gradebook.document_text(signed))
    return signed


def _read_again(plan: Plan, scratch: Path) -> _submissions.Answers | None:
    """The submission's answers read again from where they came from, into a new folder of the
    grader's, when they are still the bytes planned with; else None."""
    if plan.submission is None or plan.answers is None:
        return None
    folder = Path(tempfile.mkdtemp(prefix="again-", dir=scratch))
    try:
        fresh = _submissions.read(plan.submission, plan.names, folder)
    except Exception:  # noqa: BLE001 - any failure reading it again: not graded now, retried by the next run
        return None
    return fresh if isinstance(fresh, _submissions.Answers) and fresh.digest == plan.answers.digest else None


def _verdicts(plan: Plan, runs: list[Run], draws: dict[str, tuple[_sampling.Draw, ...]], expected: dict[str, Any],
              seed: int, names: list[str]) -> list[Verdict]:
    """One verdict per puzzle of `names` (catalog order): judged runs, refused files, missing files."""
    from checker.engine._engine import _verdict

    answers = plan.answers
    assert answers is not None
    by_name = dict(zip(plan.runnable(), runs))
    verdicts = []
    for p in (_slot_puzzle(plan.slot(n)) for n in names):
        if p.name in by_name:
            slot = plan.slot(p.name)
            verdict = _verdict(p, draws[slot], by_name[p.name], seed, expected.get(slot))
            verdict = dataclasses.replace(verdict, path=answers.files[p.name])
        elif p.name in plan.refused:
            why = plan.refused[p.name]
            verdict = Verdict(p.name, Status.ERROR, why, (Diagnosis(Kind.FORBIDDEN, why),), path=answers.files[p.name],
                              seed=seed)
        else:
            status, message = answers.missing[p.name]
            kind = Kind.DUPLICATE if p.name in answers.duplicated else Kind.MISSING
            verdict = Verdict(p.name, Status(status), message, (Diagnosis(kind, message),), seed=seed)
        if p.name in answers.ignored and p.name in answers.files:
            ignored = answers.ignored[p.name]
            copies = ", ".join(ignored[:SHOWN_COPIES]) + (f" and {len(ignored) - SHOWN_COPIES} more"
                                                          if len(ignored) > SHOWN_COPIES else "")
            note = (f"{answers.files[p.name]} was graded; {copies}, also named {p.name}.py, ignored (one answer file "
                    "per puzzle)")
            verdict = dataclasses.replace(verdict, message=f"{verdict.message}. {note}")
        verdicts.append(verdict)
    return verdicts


# Other files named like an answer that a verdict names: a submission with 24,000 copies of one
# made feedback files of 6.5 MB (red team RT26).
SHOWN_COPIES = 5


def _hidden(scratch: str | Path, *folders: Path) -> tuple[str, ...]:
    """The grader's own paths, longest first: its scratch, SUBMISSIONS, OUT, the kit's folder."""
    paths = {os.path.abspath(scratch), os.path.realpath(scratch), str(Path(_catalog.__file__).resolve().parents[2])}
    for folder in folders:
        paths |= {os.path.abspath(folder), str(folder.resolve())}
    # Absolute paths only: a relative `--out out` must not take "out" out of "output".
    return tuple(sorted((p.rstrip("/") for p in paths if p.startswith("/") and len(p.rstrip("/")) > 1), key=len,
                        reverse=True))


def _scrub(text: str, seed: int, hidden: tuple[str, ...]) -> str:
    """Text a student receives: no seed of the draws, no path of the grader's, no control
    character an answer printed or raised (`_report.printable`), and no CI workflow command
    (`_gradebook.neutralised`: the feedback files, junit.xml and a platform's results are shown
    in logs too; red team RT31)."""
    text = _report.printable(text)
    text = re.sub(rf" ?\(seed {seed}\)|\bseed {seed}\b", "", text)
    for path in hidden:
        # A file under it (a worker's copy `<scratch>/job3-x/code/autodiff/cumsum.py`) keeps its
        # path relative to the submission; the folder alone becomes "…". Wherever it starts: a
        # path glued to the text before it (`\x00/tmp/...` in a repr of /proc/1/cmdline, red team
        # RT23) is the grader's path all the same. It ends at a word's end (`<scratch>-other` stays).
        pattern = re.escape(path) + r"(?:/(?:\d+/)?(?:job[^/\s]*/code/)?|(?![\w.-]))"
        text = re.sub(pattern, lambda m: "" if m.group(0).endswith("/") else "…", text)
    return _gradebook.neutralised(text)


def _for_students(verdict: Verdict, seed: int, hidden: tuple[str, ...]) -> Verdict:
    """`verdict` as a student receives it: seed and grader paths scrubbed from every text, and
    the oracles' set-up notes (install TensorFlow...) left to the instructor."""
    scrubbed = with_texts(verdict, lambda text: _scrub(text, seed, hidden))
    oracles = tuple(dataclasses.replace(c, note="not compared on the grader" if c.note else "")
                    for c in verdict.oracles)
    return dataclasses.replace(scrubbed, oracles=oracles)


def _oracle_notes(expected: dict[str, Any]) -> list[str]:
    """The set-up notes of the oracles that could not be compared (TensorFlow missing...), once each."""
    notes: dict[str, None] = {}
    for value in expected.values():
        others = value[1] if isinstance(value, tuple) and len(value) > 1 and isinstance(value[1], list) else []
        for other in others:
            if isinstance(other, tuple) and len(other) == 3 and other[2]:
                notes[f"{other[0]}: not compared: {other[2]}"] = None
    return list(notes)


def _off_roster(docs: list[dict[str, Any]], assignment: Assignment | None) -> list[dict[str, str]]:
    """The graded submissions a roster does not list, each with a note for the instructor: graded
    under its own name as the student id, which may be a typo or a look-alike of a listed name
    (`viс` with a Cyrillic `с` beside `vic`: red team RT23). Characters outside ASCII are named."""
    if assignment is None or not assignment.students:
        return []
    listed = dict(assignment.students)
    found = []
    for doc in docs:
        name = str(doc["submission"])
        if doc["status"] == _gradebook.SKIPPED or name in listed:
            continue
        foreign = list(dict.fromkeys(c for c in name if not c.isascii()))[:5]
        named = ("; its name holds " + ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'an unnamed character')}"
                                                  for c in foreign)) if foreign else ""
        found.append({"submission": name, "note": f"graded with its own name as the student id{named}: if it is a "
                                                  "listed student's work, rename it to their roster name"})
    return found


def _write_gradebook(out: Path, docs: list[dict[str, Any]], names: list[str],
                     unlisted: list[dict[str, str]] | None = None) -> None:
    """The class-wide files, from every submission's document (`unlisted`: `_off_roster`'s notes)."""
    summary = _gradebook.summary(docs, names, unlisted or [])
    _gradebook.write_atomic(out / "grades.csv", _gradebook.grades_csv(docs, names))
    _gradebook.write_atomic(out / "junit.xml", _gradebook.junit_xml(docs))
    _gradebook.write_atomic(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    _gradebook.write_atomic(out / "summary.md", _gradebook.summary_markdown(summary))


def _table(docs: list[dict[str, Any]]) -> Table:
    """The end-of-run table: one row per submission."""
    table = Table(title="jacpuzzles grade", title_justify="left", show_edge=False)
    # The counts and scores never give way: on a narrow terminal the note folds onto more lines
    # (and a long name), instead of squeezing the other columns to nothing.
    table.add_column("submission", justify="left", min_width=10, overflow="fold")
    table.add_column("score", justify="right", no_wrap=True, min_width=len("ungradable"))
    for column in ("pass", "fail", "error", "todo"):
        table.add_column(column, justify="right", no_wrap=True, min_width=len(column))
    table.add_column("note", overflow="fold", max_width=60)
    for doc in docs:
        counts = {s.value: sum(r["status"] == s.value for r in doc["results"]) for s in Status}
        score = str(doc["status"]) if doc["score"] is None else f"{doc['score']}/{doc['max_score']}"
        # Text, never markup: names and reasons come from the submissions.
        table.add_row(Text(_submissions.shown(str(doc["submission"]))), score, *(str(counts[s.value]) for s in Status),
                      Text(str(doc.get("reason", ""))))
    return table


def _drawn_for(answers: _submissions.Answers) -> str:
    """What a submission's fresh draws are mixed from: its answer files, and the catalog and packs
    in use, a pack of the student's repository included (red team RT31: a table of Jacobians in a
    comment of the repository's pack.toml, which reaches the worker, left the answer files and so
    the draws unchanged)."""
    return answers.digest + _catalog_digest()


def submission_seed(seed: int, digest: str) -> int:
    """The seed one submission's inputs are drawn from: `seed` (a secret) mixed with the digest
    of its answer files. A CI front-end grades every resubmission on the same secret seed and
    shows the student the input that exposed a mistake (and whatever the answer printed): with
    the seed alone, a student could collect those inputs and hand in a table of Jacobians looked
    up by input (red team RT30). Mixed, other files meet other inputs, while the same files
    always get the same draws, so a grade is reproducible."""
    mixed = hashlib.sha256(f"jacpuzzles draws\0{seed}\0{digest}".encode()).digest()
    return int.from_bytes(mixed[:4], "big") & 0x7FFFFFFF


def grade_one(root: Path, name: str, out: Path, limits: Limits, seed: int, console: Console, progress: Console,
              assignment: Assignment | None = None, student: str | None = None, trust: bool = False) -> dict[str, Any]:
    """Grade the single submission in the folder `root` (a student's checked-out repository, a
    Gradescope upload) into `out`, exactly as `grade_class` grades each student of a class;
    returns its document (`out/<name>.json`). Nothing is taken from an earlier run's journal.

    `console` gets the feedback report and the table, `progress` the progress bar. Only the
    `assignment`'s puzzles are run and counted (default: the whole catalog). With its variants
    on, each puzzle is graded on the variant of `student` (a CI front-end's finding: the
    roster's id for it, else itself), or of `name` when None. `trust` as for `grade_class`.
    A seed other than the default is the course staff's secret, and one submission is graded per
    run, each resubmission on the same seed: the draws come from it mixed with what the
    submission brings (`submission_seed`), not from it alone.
    """
    try:
        folder = root.is_dir()
    except OSError as exc:
        raise BadSetup(f"cannot read the submission folder {str(root)!r}: {exc.strerror or exc}") from None
    if not folder:
        raise BadSetup(f"submission folder {str(root)!r} does not exist or is not a folder: pass the folder holding "
                       "the answer files")
    _check_setup(root, out, 1, limits)
    signer = _signer(out, None)
    points = (assignment or _assignment.default()).points()
    names = list(points)
    with _disk.scratch_folder() as scratch:
        chosen = assignment if assignment is not None and assignment.variants else None
        plan = _plan(_submissions.Submission(name, root), Path(scratch) / "0", names, points, signer.sealed(seed),
                     limits, chosen, student, score_refusal=True)
        if seed != DEFAULT_SEED and plan.answers is not None:
            seed = submission_seed(seed, _drawn_for(plan.answers))
        with _numerics.pinned():
            # One student's CI log: students read it, so no set-up advice there.
            records: dict[str, dict[str, Any]] = {}
            _grade_all([plan], Path(scratch), out, names, points, seed, limits, 1, progress,
                       _hidden(scratch, root, out), advice=False, unseen=(root, out),
                       signer=signer, records=records, trust=trust)
    doc = records[name]
    _write_gradebook(out, [doc], names)
    # What the answers printed: no line of it is a CI runner's command.
    _gradebook.print_neutralised(console, Text((out / f"{name}.txt").read_text().rstrip("\n")), _table([doc]))
    return doc
