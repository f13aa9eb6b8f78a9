"""`jacpuzzles watch`: a screen that follows the learner, like rustlings' watch mode.

The screen shows the current puzzle (the first unsolved one, in catalog order), its latest
verdict trimmed to fit the terminal, a progress bar, and the keys: `h` next hint, `n` next
puzzle, `l` list, `q` quit. Saving an answer file checks it; when the current puzzle passes,
the next unsolved one becomes current. Without a terminal on stdin (CI, a pipe) there are no
keys and each verdict is printed as lines, as `check` prints it.

Threads only wait: one for file events (watchfiles), one for key presses, one importing JAX and
computing the current puzzle's expected Jacobians while the learner reads. Every check runs on
the main thread, where the runner's time limit (SIGALRM) and Ctrl-C work, after the warm-up.
While a check runs, a ticker thread redraws the screen with the puzzle and the time so far, and
a new save of a file being checked (or `q`) stops the check as Ctrl-C would, from the thread
that heard it (a SIGINT sent to the main thread); the save then starts a fresh check.
"""

from __future__ import annotations

import contextlib
import os
import queue
import select
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.live import Live
from rich.progress_bar import ProgressBar
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from checker.engine import _catalog, _variants
from checker.engine._catalog import Puzzle
from checker.engine._settings import DEFAULT_SEED, DEFAULT_TIMEOUT
from checker.engine._stubs import find_answers, relative_path
from checker.learner import _state, _workspace

if TYPE_CHECKING:
    from checker.engine._verdict import Verdict

POLL_ENV = "JACPUZZLES_POLL"
POLL_DELAY_MS = 100  # when polling: how often the folder is scanned
STEP_MS = 25  # a save is reported once the folder has been quiet this long (watchfiles: 50)
# File systems whose changes made on another machine send no inotify events (/proc/mounts names).
NETWORK_FS = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb",
        "smb3",
        "smbfs",
        "ncpfs",
        "afs",
        "9p",
        "drvfs",
        "vboxsf",
        "virtiofs",
        "fuse.sshfs",
        "sshfs",
        "prl_fs",
        "vmhgfs",
        "fuse.vmhgfs-fuse",
    }
)
KEYS = (("h", "hint"), ("n", "next puzzle"), ("l", "list"), ("q", "quit"))
STATUS_STYLE = {
    "pass": "bold green",
    "fail": "bold red",
    "error": "bold magenta",
    "todo": "yellow",
    "unchecked": "cyan",
}
STATUS_MARK = {"pass": "✔", "fail": "✘", "error": "!", "todo": "…", "unchecked": "?"}
Event = tuple[str, object]
TICK_S = 0.25  # while a check runs: how often the time shown is updated
_T = TypeVar("_T")


class Cancelled(Exception):
    """A check stopped before its verdict: its file was saved again, or `q` was pressed.
    Control flow inside the watch loop, which always catches it: not a `JacpuzzlesError`."""


class _Events(queue.Queue[Event]):
    """The event queue; `heard`, when set, is told of each event as it is put (from the thread
    that puts it), so that a save can stop a check that the main thread is busy running."""

    heard: Callable[[Event], None] | None = None

    def put(self, item: Event, block: bool = True, timeout: float | None = None) -> None:
        # Told first: once queued, the event may start a check at once, which it must not stop.
        if self.heard is not None:
            self.heard(item)
        super().put(item, block, timeout)


# ---------------------------------------------------------------------------------------------
# The file watcher: polling or file events


def polling_wanted(root: Path, mounts: str | None = None) -> str | None:
    """Why `root` should be polled rather than watched for file events, or None.

    `JACPUZZLES_POLL=1` asks for polling (`0` forbids it); otherwise a folder on a network or
    shared file system (NFS, SMB, sshfs, 9p, a VirtualBox share) is polled, since changes made
    on the other side of the mount send no events. `mounts` is `/proc/mounts`' text (for tests).
    """
    setting = os.environ.get(POLL_ENV, "").strip().lower()
    if setting in ("1", "yes", "true", "on"):
        return f"{POLL_ENV}={os.environ[POLL_ENV]}"
    if setting in ("0", "no", "false", "off"):
        return None
    if mounts is None:
        try:
            mounts = Path("/proc/mounts").read_text()
        except OSError:
            return None
    where, best = str(root.resolve()), ("", "")
    for line in mounts.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        point = parts[1].replace("\\040", " ")
        inside = where == point or where.startswith(point.rstrip("/") + "/")
        if inside and len(point) > len(best[0]):
            best = (point, parts[2])
    return f"{best[0]} is a {best[1]} mount" if best[1] in NETWORK_FS else None


def _watch_files(root: Path, events: queue.Queue[Event], stop: threading.Event, polling: bool) -> None:
    """Put `("files", {path, ...})` on `events` for each batch of saved answer files."""
    if not polling:
        from watchfiles import watch

        names = {p.name for p in _catalog.puzzles()}
        try:
            for changes in watch(
                root, watch_filter=lambda change, path: path.endswith(".py") and Path(path).stem in names,
                stop_event=stop, rust_timeout=500, step=STEP_MS, raise_interrupt=False,
            ):
                events.put(("files", {Path(p) for _, p in changes}))
            return
        except (OSError, RuntimeError) as exc:  # watchfiles' errors: no inotify, a watch limit reached: poll instead
            events.put(("polling", f"file events unavailable ({exc}); polling every {POLL_DELAY_MS} ms"))
    _poll_files(root, events, stop)


# A file's stat, and its digest when it changed lately: two saves within the same second look
# alike to a file system that keeps modification times in whole seconds (many network mounts,
# and watchfiles' own polling, which is why it is not used).
_Seen = tuple[int, int, "str | None"]


def _scan(root: Path) -> dict[Path, _Seen]:
    seen: dict[Path, _Seen] = {}
    for path in (p for paths in find_answers(root).values() for p in paths):
        try:
            st = path.stat()
        except OSError:
            continue
        recent = time.time() - st.st_mtime < 2.5
        seen[path] = (st.st_mtime_ns, st.st_size, _state.digest(path) if recent else None)
    return seen


def _differs(a: _Seen | None, b: _Seen | None) -> bool:
    if a is None or b is None:
        return a is not b
    return a[:2] != b[:2] or (a[2] is not None and b[2] is not None and a[2] != b[2])


def _poll_files(root: Path, events: queue.Queue[Event], stop: threading.Event) -> None:
    """Like `_watch_files`, by looking at the answer files every `POLL_DELAY_MS`."""
    before = _scan(root)
    while not stop.wait(POLL_DELAY_MS / 1000):
        now = _scan(root) if root.is_dir() else {}
        changed = {path for path in before.keys() | now.keys() if _differs(before.get(path), now.get(path))}
        before = now
        if changed:
            events.put(("files", changed))


def _read_keys(fd: int, events: queue.Queue[Event], stop: threading.Event) -> None:
    """Put `("key", character)` on `events` for each key pressed."""
    while not stop.is_set():
        try:
            ready, _, _ = select.select([fd], [], [], 0.1)
            data = os.read(fd, 64) if ready else None
        except OSError:
            return
        if data == b"":
            return  # end of input: no more keys, the watcher goes on
        for ch in (data or b"").decode(errors="ignore"):
            events.put(("key", ch))


def _warm(
    name: str | None, seed: int, events: queue.Queue[Event], variants: dict[str, dict[str, Any]] | None = None
) -> None:
    """Import JAX and the checker, and compute `name`'s expected Jacobians (cached on disk)."""
    problem = None
    try:
        from checker.engine import _engine, _numerics, _report, _sampling  # noqa: F401 - imported to warm up
        from checker.engine._oracles import keep_compilations

        keep_compilations()
        if name is not None:
            puzzle = _variants.variant(name, (variants or {}).get(name))
            with _numerics.pinned():
                _engine._expected([(puzzle, _sampling.draws(puzzle, seed))])
    except Exception as exc:  # noqa: BLE001 - a warm-up may fail any way; the check itself reports it
        problem = f"warm-up failed: {type(exc).__name__}: {exc}"
    events.put(("warm", problem))


# ---------------------------------------------------------------------------------------------
# The session: what the screen shows (no drawing here)


@dataclass
class Session:
    """The watch's state: puzzles followed, their statuses, the current one and its verdict."""

    root: Path
    seed: int = DEFAULT_SEED
    timeout: float = DEFAULT_TIMEOUT
    order: list[str] = field(default_factory=list)  # puzzles followed, catalog order
    status: dict[str, str] = field(default_factory=dict)
    current: str | None = None
    verdict: Verdict | None = None  # the latest verdict of `current`, if checked this session
    moved: str = ""  # "cumsum passed → next: neg"
    passed_line: str = ""  # the verdict that made the watch move on: "✔ cumsum: PASS · correct on…"
    hints: tuple[str, ...] = ()  # hints of `current` revealed on screen
    hints_total: int = 0
    note: str = ""  # what the watch is doing: warming up, checking, watching
    listing: bool = False
    running: tuple[str, ...] = ()  # the puzzles being checked right now
    running_since: float = 0.0  # time.monotonic() when that check started
    # The workspace's variants (`_workspace.choices`): read from `root` when not given.
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.variants:
            self.variants = _workspace.choices(self.root)

    def puzzle(self, name: str) -> Puzzle:
        """Puzzle `name` as this workspace has it: the student's own variant, or the published one."""
        return _variants.variant(name, self.variants.get(name))

    def running_note(self) -> str:
        """"checking neg… 3.2 s", while a check runs; else ""."""
        if not self.running:
            return ""
        return f"checking {', '.join(self.running)}… {time.monotonic() - self.running_since:.1f} s"

    def refresh(self) -> None:
        """Re-read which puzzles have files and their statuses (from the state file)."""

        found = find_answers(self.root)
        everything = [p.name for p in _catalog.puzzles()]
        self.order = [n for n in everything if n in found] or everything
        state = _state.verdicts(self.root)
        self.status = {n: _workspace.status_of(self.root, n, found, state, self.variants) for n in self.order}

    def next_unsolved(self, after: str | None) -> str | None:
        """The first puzzle not passing after `after` (wrapping round, `after` last), or None."""
        start = self.order.index(after) + 1 if after in self.order else 0
        ring = self.order[start:] + self.order[:start]
        return next((n for n in ring if self.status.get(n) != "pass"), None)

    def make_current(self, name: str | None) -> None:
        """Show `name`, without a verdict or hints yet."""
        if name != self.current:
            self.current, self.verdict, self.hints, self.hints_total = name, None, (), 0

    def reveal_hint(self) -> None:
        """Reveal the current puzzle's next hint, and remember it as `jacpuzzles hint` does."""
        if self.current is None:
            return
        puzzle = self.puzzle(self.current)
        shown = _state.hints_shown(self.root, puzzle.name)
        reveal = min(shown + 1, len(puzzle.hints))
        self.hints, self.hints_total = puzzle.hints[:reveal], len(puzzle.hints)
        _state.record_hint(self.root, puzzle.name, reveal)

    @property
    def passed(self) -> int:
        """How many of the puzzles followed pass."""
        return sum(s == "pass" for s in self.status.values())


# ---------------------------------------------------------------------------------------------
# Drawing


class Trimmed:
    """A renderable cut to at most `lines` lines, the last saying how much was left out."""

    def __init__(self, inner: RenderableType, lines: int, more: str) -> None:
        self.inner, self.lines, self.more = inner, lines, more

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rendered = console.render_lines(self.inner, options.update(height=None), pad=False)
        while rendered and not "".join(s.text for s in rendered[-1]).strip():
            rendered.pop()
        if len(rendered) > self.lines:
            hidden = len(rendered) - max(self.lines - 1, 0)
            rendered = rendered[: max(self.lines - 1, 0)]
            note = Text(
                f"… {hidden} more line{'' if hidden == 1 else 's'}: {self.more}",
                style="dim",
                no_wrap=True,
                overflow="ellipsis",
            )
            rendered += console.render_lines(note, options.update(height=None), pad=False)[:1]
        for line in rendered[: max(self.lines, 0)]:
            yield from line
            yield Segment.line()


def _status_text(status: str) -> Text:
    return Text(f"{STATUS_MARK.get(status, '?')} {status}", style=STATUS_STYLE.get(status, ""))


def _placeholder(session: Session) -> Text:
    """What stands for the verdict of a puzzle not checked in this session."""
    assert session.current is not None
    name = session.current
    status = session.status.get(name, "todo")
    path = session.root / relative_path(session.puzzle(name))
    text = Text(f"{STATUS_MARK.get(status, '?')} {name}: {status.upper()}\n", style=STATUS_STYLE.get(status, ""))
    if status == "todo":
        text.append(
            f"  fill in `{session.puzzle(name).answer_name}` in {path} below the marker line, and save.\n  ", style=""
        )
        text.append(f"`jacpuzzles show {name}` shows the puzzle; h reveals a hint.", style="dim")
    else:
        text.append(f"  from the last check; save {path} to check it again.", style="")
    return text


def _running(session: Session) -> Text:
    """What stands for the verdict while the current puzzle's check runs."""
    assert session.current is not None
    path = session.root / relative_path(session.puzzle(session.current))
    text = Text(f"⏳ {session.running_note()}\n", style="bold cyan")
    text.append(
        f"  an answer that does not return is stopped after {session.timeout:g} s per call; "
        f"save {path} again to stop this check and check the new version, q to quit.",
        style="",
    )
    return text


def _listing(session: Session, width: int) -> RenderableType:
    """The chapter tables with each followed puzzle's status."""
    tables = []
    for chapter in _catalog.chapters():
        table = Table(
            title=f"{chapter.title} ({chapter.name})",
            title_justify="left",
            show_edge=False,
            pad_edge=False,
            min_width=40,
        )
        for column in ("#", "puzzle", "status"):
            table.add_column(column, justify="right" if column == "#" else "left")
        for number, p in enumerate(chapter.puzzles, 1):
            if p.name in session.status:
                mark = " ◀" if p.name == session.current else ""
                table.add_row(str(number), p.name + mark, _status_text(session.status[p.name]))
        if table.row_count:
            tables.append(table)
    return Columns(tables, padding=(0, 4)) if width >= 100 else Group(*tables)


class WatchScreen:
    """The whole screen, fitted to the terminal: header, progress, the current puzzle, keys."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def _head(self) -> list[RenderableType]:
        s = self.session
        total = len(s.order)
        bar = Table.grid(padding=(0, 1))
        bar.add_row(
            ProgressBar(total=max(total, 1), completed=s.passed, width=30),
            Text(f"{s.passed}/{total} puzzles pass", style="bold"),
        )
        head: list[RenderableType] = [Text.assemble(("jacpuzzles watch", "bold"), (f" · {s.root}", "dim")), bar]
        if s.listing:
            return head
        if s.current is None:
            head.append(Text(f"🎉 every puzzle here passes ({total}/{total}).", style="bold green"))
            return head
        p = s.puzzle(s.current)
        number = [q.name for q in _catalog.puzzles() if q.chapter == p.chapter].index(p.name) + 1
        head.append(
            Text.assemble(
                ("current: ", "bold"),
                (p.name, "bold cyan"),
                f" · {p.title} · {p.chapter} #{number} · {p.points} point{'s' if p.points != 1 else ''}",
            )
        )
        return head

    def _foot(self) -> list[RenderableType]:
        s = self.session
        foot: list[RenderableType] = []
        if s.listing:
            foot.append(Text("press any key to go back", style="dim"))
            return foot
        if s.passed_line:
            foot.append(Text(s.passed_line, style="green"))
        if s.moved:
            foot.append(Text(s.moved, style="bold green"))
        for k, hint in enumerate(s.hints):
            foot.append(Text.assemble((f"Hint {k + 1}/{s.hints_total}: ", "bold yellow"), hint))
        if s.hints and len(s.hints) == s.hints_total and s.current is not None:

            foot.append(Text(_workspace.last_hint_note(s.current), style="dim"))
        keys = Text()
        for key, what in KEYS:
            keys.append(f" {key} ", style="reverse bold")
            keys.append(f" {what}   ")
        if s.running:
            keys.append(s.running_note(), style="bold cyan")
        elif s.note:
            keys.append(s.note, style="dim")
        foot.append(keys)
        return foot

    def _body(self, width: int) -> tuple[RenderableType | None, str]:
        s = self.session
        if s.listing:
            return _listing(s, width), "`jacpuzzles list` shows them all"
        if s.current is None:
            return None, ""
        if s.current in s.running:
            return _running(s), ""
        if s.verdict is not None and s.verdict.puzzle == s.current:
            from checker.engine._report import VerdictView  # imports numpy: only once there is a verdict

            return VerdictView(s.verdict), f"`jacpuzzles check {s.current}` shows the whole report"
        return _placeholder(s), ""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        height = options.height or console.height
        free = options.update(height=None)
        head = console.render_lines(Group(*self._head()), free, pad=False)
        foot = console.render_lines(Group(*self._foot()), free, pad=False)
        body, more = self._body(options.max_width)
        room = height - len(head) - len(foot) - 2  # a blank line above and below the body
        for line in head:
            yield from line
            yield Segment.line()
        yield Segment.line()
        if body is not None:
            yield Trimmed(body, max(room, 1), more)
        yield Segment.line()
        for line in foot:
            yield from line
            yield Segment.line()


# ---------------------------------------------------------------------------------------------
# The event loop


@dataclass
class _Watch:
    """Runs checks for the session; the loop feeding it events is `run`."""

    session: Session
    events: _Events = field(default_factory=_Events)
    warming: threading.Thread | None = None
    ready: bool = False
    eager: bool = True  # check a puzzle on becoming current (the screen; not the line output)
    checked: set[str] = field(default_factory=set)  # puzzles checked or warmed up for
    redraw: Callable[[], None] | None = None  # the screen's refresh, called by the ticker
    lock: threading.Lock = field(default_factory=threading.Lock)
    busy: frozenset[str] = frozenset()  # the puzzles a check is running for (under `lock`)
    stopping: bool = False  # a stop of that check was asked for (under `lock`)

    def __post_init__(self) -> None:
        self.events.heard = self.heard

    def heard(self, event: Event) -> None:
        """From the watcher or key thread, before the event is queued: stop the running check
        when one of its files is saved again, or on `q`; the event is handled once it stopped."""
        kind, value = event
        with self.lock:
            if not self.busy or self.stopping or threading.current_thread() is threading.main_thread():
                return
            if kind == "files" and isinstance(value, set):
                wanted = bool({path.stem for path in value} & self.busy)
            else:
                wanted = event == ("key", "q")
            if wanted:
                self.stopping = True
                # As Ctrl-C does: the runner ends the answer's call and lets it out of the check.
                if hasattr(signal, "pthread_kill"):
                    signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
                else:  # Windows: a simulated SIGINT, handled by the same handler
                    import _thread

                    _thread.interrupt_main()

    def _ticker(self, done: threading.Event) -> None:
        """Redraw the screen every `TICK_S` while a check runs: the time shown goes up."""
        while not done.wait(TICK_S):
            if self.redraw is not None:
                self.redraw()

    def _stoppable(self, names: Sequence[str], work: Callable[[], _T]) -> _T:
        """`work()`, the check of `names`, shown as running; `Cancelled` when a save of one of
        their files or `q` stopped it.

        The stop is a SIGINT, which may land anywhere in the main thread until `busy` is
        cleared: wherever it lands it is caught here, once, and becomes `Cancelled`."""
        s = self.session
        done = threading.Event()
        ticker = threading.Thread(target=self._ticker, args=(done,), daemon=True, name="jacpuzzles-ticker")
        stopped = finished = False
        try:
            s.running, s.running_since = tuple(names), time.monotonic()
            ticker.start()
            with self.lock:
                self.busy, self.stopping = frozenset(names), False
            result = work()
            finished = True
        except KeyboardInterrupt:
            if not self.stopping:  # the learner's own Ctrl-C: the watch ends
                self._end(done, ticker, stopped=False)
                raise
            stopped = True
        stopped = self._end(done, ticker, stopped)
        if self.stopping and not stopped:  # asked for just as the check ended: the signal is still to come
            stopped = _absorb_interrupt()
        if stopped or self.stopping or not finished:
            raise Cancelled()
        return result

    def _end(self, done: threading.Event, ticker: threading.Thread, stopped: bool) -> bool:
        """Stop showing the check as running; returns whether the stop signal has been received."""
        while True:
            try:
                with self.lock:
                    self.busy = frozenset()
                done.set()
                if ticker.ident is not None:
                    ticker.join()
                self.session.running = ()
                return stopped
            except KeyboardInterrupt:
                if not self.stopping or stopped:
                    raise
                stopped = True  # only one is sent per check: the clean-up can go on

    def warm(self, name: str | None) -> None:
        """Warm up (again) in the background, for puzzle `name`."""
        self.join()
        if name is not None:
            self.checked.add(name)  # once `warming` is joined
        self.warming = threading.Thread(
            target=_warm,
            args=(name, self.session.seed, self.events, self.session.variants),
            daemon=True,
            name="jacpuzzles-warm",
        )
        self.warming.start()

    def join(self) -> None:
        """Wait for the warm-up, if one is under way: checks and warm-ups both pin JAX's settings."""
        if self.warming is not None:
            self.warming.join()
            self.warming = None

    def check(self, names: Sequence[str]) -> list[Verdict]:
        """Check these puzzles' files now, record the statuses, and refresh the session."""
        from checker.engine._verdict import Verdict

        s = self.session

        def work() -> tuple[dict[str, Path | Verdict], list[tuple[str, Path]], dict[str, Verdict]]:
            # Waiting for the warm-up (which may still be importing JAX) is part of the check:
            # a new save stops that wait too.
            from checker.engine._engine import check_files

            self.join()
            found = find_answers(s.root)
            located = {name: _workspace.locate(s.root, name, found, s.seed) for name in names}
            files = [(name, where) for name, where in located.items() if isinstance(where, Path)]
            verdicts = check_files(files, seed=s.seed, timeout=s.timeout, variants=s.variants) if files else []
            return located, files, dict(zip((n for n, _ in files), verdicts))

        located, files, checked = self._stoppable(names, work)
        _state.record(s.root, {name: (checked[name].status.value, _state.digest(path)) for name, path in files})
        verdicts = []
        for name in names:
            where = located[name]
            verdicts.append(where if isinstance(where, Verdict) else checked[name])
        if all(name in s.status for name in names):
            s.status.update({v.puzzle: v.status.value for v in verdicts})  # what a refresh would read
        else:
            s.refresh()  # a new file: one more puzzle to follow
        self.checked.update(names)
        return verdicts

    def slow(self, names: Sequence[str]) -> bool:
        """Whether checking these may take long enough to say so first (JAX still warming up,
        a puzzle whose expected Jacobians were never computed in this process)."""
        return not self.ready or self.warming is not None or not set(names) <= self.checked

    def saved(self, paths: set[Path]) -> tuple[list[Verdict], str]:
        """Check the puzzles whose files were saved; returns the verdicts and the move, if any."""
        s = self.session
        names = [p.name for p in _catalog.puzzles() if p.name in {path.stem for path in paths}]
        if not names:
            return [], ""
        verdicts = self.check(names)
        shown = s.current if s.current in names else names[-1]
        s.make_current(shown)
        s.verdict = next(v for v in verdicts if v.puzzle == shown)
        s.moved = s.passed_line = ""
        if s.verdict.passed:
            after = s.next_unsolved(shown)
            s.passed_line = f"✔ {shown}: PASS · {s.verdict.message}"
            s.moved = f"{shown} passed → next: {after}" if after else f"{shown} passed: every puzzle here passes"
            self.move_to(after)
        return verdicts, s.moved

    def move_to(self, name: str | None) -> None:
        """Make `name` current: check it if its file was edited, else get its oracles ready."""
        s = self.session
        s.make_current(name)
        if name is None:
            return
        if s.status.get(name, "todo") == "todo" or not self.eager:
            self.warm(name)
        else:
            s.verdict = self.check([name])[0]


def run(root: Path, seed: int, timeout: float, console: Console) -> int:
    """Watch `root` until `q` or Ctrl-C; returns the exit code (0)."""
    # The console's own file, not whatever `sys.stdout` is when it draws: while an answer runs,
    # `sys.stdout` is the runner's capture of its output, and the ticker draws then.
    console.file = console.file
    session = Session(root, seed, timeout)
    session.refresh()
    session.make_current(session.next_unsolved(None))
    why = polling_wanted(root)
    interactive = interactive_screen(console)
    runner = _Watch(session)
    stop = threading.Event()
    threading.Thread(
        target=_watch_files, args=(root, runner.events, stop, why is not None), daemon=True, name="jacpuzzles-files"
    ).start()
    if interactive and threading.current_thread() is threading.main_thread():
        # The screen says Ctrl-C stops it: so it does, even where the watch was started with
        # SIGINT ignored (inherited from a parent that ignores it, as pytest-xdist's workers do).
        signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        code = _screen(runner, console, stop, why) if interactive else _lines(runner, console, why)
    except KeyboardInterrupt:
        code = 0
    finally:
        stop.set()
    if runner.warming is not None and runner.warming.is_alive():
        _end_now(console, code)
    return code


def _end_now(console: Console, code: int) -> None:
    """End the process while the warm-up thread is still inside JAX. Python's finalization would
    stop that thread in XLA's C++ code, whose clean-up cannot be unwound: the C++ runtime ends the
    process with SIGABRT ("terminate called ... exception not rethrown") instead of `code`. What
    the screen showed is written out first. The warm-up only fills caches: ours are written whole
    or not at all, and JAX warns of an entry of its own cut short and compiles it again."""
    for stream in (console.file, sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os._exit(code)


def interactive_screen(console: Console) -> bool:
    """Whether `watch` draws its screen: a terminal on both ends, and POSIX terminal control
    (termios, and `select` on the keyboard's descriptor), which Windows lacks. Without it, a
    verdict is printed after each save, as without a terminal."""
    if not (sys.stdin.isatty() and console.is_terminal) or os.name != "posix":
        return False
    try:
        import termios  # noqa: F401 - only whether it exists
    except ImportError:
        return False
    return True


def _lines(runner: _Watch, console: Console, why: str | None) -> int:
    """Without a terminal: print each verdict as `check` does, one save after another."""
    from checker.engine._report import render

    runner.eager = False
    console.print(Text(f"watching {runner.session.root} for changes; Ctrl-C to stop", style="dim"))
    if why:
        console.print(Text(f"polling every {POLL_DELAY_MS} ms ({why})", style="dim"))
    runner.warm(runner.session.current)
    points = _workspace.points(runner.session.root)  # the assignment's, in a student's workspace
    while True:
        kind, value = runner.events.get()
        if kind == "files":
            assert isinstance(value, set)
            names = [p.name for p in _catalog.puzzles() if p.name in {path.stem for path in value}]
            if not names:
                continue
            console.rule(", ".join(names))
            try:
                verdicts, moved = runner.saved(value)
            except Cancelled:
                console.print(
                    Text(f"stopped checking {', '.join(names)}: saved again, checking the new version", style="yellow")
                )
                continue
            render(verdicts, console, points)
            if moved:
                console.print(Text(moved, style="bold green"))
        elif kind in ("polling", "watch-failed"):
            console.print(Text(str(value), style="yellow"))
            if kind == "watch-failed":
                return 0


def _absorb_interrupt() -> bool:
    """Wait (briefly) for the SIGINT sent to stop a check that ended first, so that it does not
    end the watch instead; returns whether it came."""
    try:
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            time.sleep(0.01)
    except KeyboardInterrupt:
        return True
    return False


@contextlib.contextmanager
def _cbreak(fd: int) -> Iterator[None]:
    """Keys arrive one at a time, unechoed; the terminal is put back however the watch ends."""
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


@contextlib.contextmanager
def _stderr_held() -> Iterator[None]:
    """Hold what is written to file descriptor 2 (JAX's or XLA's logs) until the screen is gone,
    so that it cannot scribble over the screen; then print it."""
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            held.seek(0)
            text = held.read().decode(errors="replace")
            if text.strip():
                sys.stderr.write(text)


def _screen(runner: _Watch, console: Console, stop: threading.Event, why: str | None) -> int:
    """With a terminal: the screen, redrawn after every key and every save, until q or Ctrl-C."""
    s = runner.session
    fd = sys.stdin.fileno()
    s.note = "warming up JAX…"
    try:
        with (
            _cbreak(fd),
            _stderr_held(),
            Live(
                WatchScreen(s),
                console=console,
                screen=True,
                auto_refresh=False,
                redirect_stdout=False,
                redirect_stderr=False,
            ) as live,
        ):
            threading.Thread(
                target=_read_keys, args=(fd, runner.events, stop), daemon=True, name="jacpuzzles-keys"
            ).start()
            runner.redraw = live.refresh
            live.refresh()
            runner.warm(s.current)  # while the learner reads the screen
            _loop(runner, live, console, f"watching{' (polling: ' + why + ')' if why else ''}")
    except KeyboardInterrupt:
        pass  # Ctrl-C ends the watch as q does
    console.print(
        Text(f"{s.passed}/{len(s.order)} puzzles pass" + (f"; next: {s.current}" if s.current else ""), style="bold")
    )
    return 0


def _loop(runner: _Watch, live: Live, console: Console, idle: str) -> None:
    """Handle events (saves, keys, the warm-up finishing) until q is pressed."""
    s = runner.session
    size = console.size
    while True:
        try:
            kind, value = runner.events.get(timeout=0.5)
        except queue.Empty:
            if console.size != size:  # the terminal was resized
                size = console.size
                live.refresh()
            continue
        if kind == "warm":
            runner.join()  # done: a check need not wait for it
            s.note = str(value) if value else idle
            if not runner.ready and s.current is not None and s.status.get(s.current) not in ("todo", None):
                s.note = f"checking {s.current}…"  # an answer edited before the watch started
                live.refresh()
                with contextlib.suppress(Cancelled):  # saved again: that save is queued, and checked next
                    s.verdict = runner.check([s.current])[0]
                s.note = idle
            runner.ready = True
        elif kind == "files":
            assert isinstance(value, set)
            s.listing = False
            if runner.slow([path.stem for path in value]):  # else a redraw would only delay the verdict
                s.note = "checking…"
                live.refresh()
            with contextlib.suppress(Cancelled):
                runner.saved(value)
            s.note = idle
        elif kind in ("polling", "watch-failed"):
            idle = s.note = str(value)
        elif kind == "key" and s.listing:
            s.listing = False
        elif kind == "key" and value == "q":
            return
        elif kind == "key" and value == "h":
            s.reveal_hint()
        elif kind == "key" and value == "n":
            after = s.next_unsolved(s.current)
            s.passed_line = ""
            s.moved = f"skipped {s.current} → {after}" if after and after != s.current else "no other unsolved puzzle"
            if after and s.status.get(after) != "todo":
                s.note = f"checking {after}…"
            live.refresh()
            with contextlib.suppress(Cancelled):
                runner.move_to(after)
            s.note = idle
        elif kind == "key" and value == "l":
            s.listing = True
        else:
            continue
        live.refresh()
