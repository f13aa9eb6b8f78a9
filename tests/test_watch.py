"""`jacpuzzles watch`: the screen drawn to a string, and the command driven through a pseudo-terminal."""

from __future__ import annotations

import fcntl
import io
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from checker.engine._engine import check_answer
from checker.learner._watch import Session, WatchScreen, polling_wanted
from tests.conftest import PUZZLES, REPO, SOLUTIONS

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
ROWS, COLS = 40, 100


@pytest.fixture
def two_stubs(tmp_path: Path) -> Path:
    """An answer folder holding the untouched stubs of neg and cumsum (neg comes first)."""
    folder = tmp_path / "puzzles" / "autodiff"
    folder.mkdir(parents=True)
    for name in ("cumsum", "neg"):
        shutil.copy(PUZZLES / "autodiff" / f"{name}.py", folder / f"{name}.py")
    return tmp_path / "puzzles"


def draw(session: Session, width: int = 80, height: int = 24) -> str:
    console = Console(file=io.StringIO(), width=width, height=height, color_system=None)
    console.print(WatchScreen(session))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(text, str)
    return text


# --- the screen, rendered to a string --------------------------------------------------------


def test_the_screen_shows_the_first_unsolved_puzzle_progress_and_keys(two_stubs: Path) -> None:
    session = Session(two_stubs)
    session.refresh()
    session.make_current(session.next_unsolved(None))
    screen = draw(session)
    assert session.order == ["neg", "cumsum"]  # only the puzzles with a file, in catalog order
    assert "current: neg · Negation · autodiff #7" in screen
    assert "0/2 puzzles pass" in screen
    assert "… neg: TODO" in screen and "fill in `jac` in" in screen
    for key in ("h  hint", "n  next puzzle", "l  list", "q  quit"):
        assert key in screen


def test_a_long_verdict_is_trimmed_to_the_terminal_with_the_hints_kept(two_stubs: Path) -> None:
    session = Session(two_stubs)
    session.refresh()
    session.make_current("neg")
    session.verdict = check_answer("neg", lambda x: __import__("numpy").eye(10))
    session.reveal_hint()
    session.moved = "cumsum passed → next: neg"
    screen = draw(session, height=24)
    lines = screen.splitlines()
    assert len(lines) <= 24
    assert "✘ neg: FAIL" in screen and "the Jacobian has the wrong sign" in screen
    assert re.search(r"… \d+ more lines?: `jacpuzzles check neg` shows the whole report", screen)
    assert "cumsum passed → next: neg" in screen
    assert "Hint 1/3: Output $o$ depends only on input $o$" in screen
    assert "q  quit" in lines[-1]
    tall = draw(session, height=80)  # room for all of it: nothing left out
    assert "more line" not in tall and "yours (10 wrong)" in tall


def test_a_hint_revealed_on_screen_is_remembered_as_by_the_hint_command(two_stubs: Path) -> None:
    session = Session(two_stubs)
    session.refresh()
    session.make_current("neg")
    for _ in range(4):  # one more than there are hints: stays at the last one
        session.reveal_hint()
    screen = draw(session, height=40)
    assert "Hint 3/3: `-1 * (Is == Os)`." in screen
    assert "No more hints: `jacpuzzles show neg --page` shows the puzzle's whole page" in " ".join(screen.split())
    assert "docs/" not in screen  # a wheel install has no docs folder
    from checker.learner._state import hints_shown

    assert hints_shown(two_stubs, "neg") == 3


def test_the_list_shows_each_puzzle_with_its_status_and_the_current_one(two_stubs: Path) -> None:
    shutil.copy(SOLUTIONS / "autodiff" / "neg.py", two_stubs / "autodiff" / "neg.py")
    session = Session(two_stubs)
    session.refresh()
    session.status["neg"] = "pass"
    session.make_current(session.next_unsolved(None))
    session.listing = True
    screen = draw(session)
    assert "1/2 puzzles pass" in screen
    assert re.search(r"7 │ neg +│ ✔ pass", screen)
    assert re.search(r"10 │ cumsum ◀ +│ … todo", screen)
    assert "press any key to go back" in screen


def test_while_a_check_runs_the_screen_says_which_puzzle_and_for_how_long(two_stubs: Path) -> None:
    session = Session(two_stubs, timeout=30)
    session.refresh()
    session.make_current("neg")
    session.verdict = check_answer("neg", lambda x: __import__("numpy").eye(10))  # the previous verdict
    session.running, session.running_since = ("neg",), time.monotonic() - 4.25
    screen = " ".join(draw(session, height=30).split())
    assert re.search(r"⏳ checking neg… 4\.[23] s", screen)
    assert (
        "stopped after 30 s per call; save" in screen and "again to stop this check and check the new version" in screen
    )
    assert "✘ neg: FAIL" not in screen  # not the verdict of an earlier version of the file
    assert "watching" not in screen
    session.running = ()
    assert "✘ neg: FAIL" in draw(session, height=30)


def test_the_next_unsolved_puzzle_wraps_round_and_skips_solved_ones(two_stubs: Path) -> None:
    session = Session(two_stubs)
    session.refresh()
    assert session.next_unsolved("neg") == "cumsum"
    assert session.next_unsolved("cumsum") == "neg"
    session.status["neg"] = "pass"
    assert session.next_unsolved("cumsum") == "cumsum"
    session.status["cumsum"] = "pass"
    assert session.next_unsolved(None) is None
    session.make_current(None)
    assert "every puzzle here passes (2/2)" in draw(session)


def test_polling_is_chosen_by_the_variable_or_for_a_network_mount(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    mounts = f"/dev/sda1 / ext4 rw 0 0\nserver:/home {tmp_path.parent} nfs4 rw 0 0\n"
    monkeypatch.delenv("JACPUZZLES_POLL", raising=False)
    assert polling_wanted(tmp_path, mounts) == f"{tmp_path.parent} is a nfs4 mount"
    assert polling_wanted(tmp_path, "/dev/sda1 / ext4 rw 0 0\n") is None
    monkeypatch.setenv("JACPUZZLES_POLL", "1")
    assert polling_wanted(tmp_path, "/dev/sda1 / ext4 rw 0 0\n") == "JACPUZZLES_POLL=1"
    monkeypatch.setenv("JACPUZZLES_POLL", "0")
    assert polling_wanted(tmp_path, mounts) is None


# --- the command, through a pseudo-terminal --------------------------------------------------


class Terminal:
    """`jacpuzzles watch` running with a pseudo-terminal as its stdin, stdout and stderr."""

    def __init__(self, answers: Path, *options: str) -> None:
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.before = termios.tcgetattr(self.slave)
        env = {**os.environ, "TERM": "xterm", "COLUMNS": str(COLS), "LINES": str(ROWS)}
        env.pop("JACPUZZLES_POLL", None)

        # The terminal becomes the watch's controlling terminal, so that Ctrl-C typed on it is a
        # SIGINT (a wrapper rather than preexec_fn: no fork of this process, which may hold JAX).
        command = [sys.executable, "-m", "checker", "watch", "--dir", str(answers), *options]
        wrapper = (
            "import fcntl, os, sys, termios; fcntl.ioctl(0, termios.TIOCSCTTY, 0); os.execv(sys.argv[1], sys.argv[1:])"
        )
        self.proc = subprocess.Popen(
            [sys.executable, "-c", wrapper, *command], cwd=REPO, env=env,
            stdin=self.slave, stdout=self.slave, stderr=self.slave, start_new_session=True,
        )
        self.raw = b""  # everything shown so far
        self.seen = ""  # the same, escapes stripped

    def wait_for(self, text: str, after: int = 0, timeout: float = 60) -> int:
        """Read the screen until `text` shows up after position `after`; returns where it ends."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.seen.find(text, after)
            if found >= 0:
                return found + len(text)
            ready, _, _ = select.select([self.master], [], [], 0.2)
            try:
                chunk = os.read(self.master, 1 << 16) if ready else b""
            except OSError:  # the watch has ended and closed the terminal
                chunk = b""
            if not chunk and (time.monotonic() > deadline or self.proc.poll() is not None):
                pytest.fail(f"{text!r} never showed up; the screen showed:\n{self.seen[-3000:]}")
            self.raw += chunk
            self.seen = ANSI.sub("", self.raw.decode(errors="replace"))

    def press(self, key: bytes) -> None:
        os.write(self.master, key)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def terminal(two_stubs: Path) -> Iterator[Terminal]:
    term = Terminal(two_stubs)
    try:
        yield term
    finally:
        term.close()


def test_watch_moves_on_when_the_current_puzzle_passes_and_answers_keys(terminal: Terminal, two_stubs: Path) -> None:
    terminal.wait_for("current: neg")
    terminal.wait_for("… neg: TODO")
    at = terminal.wait_for("watching")  # JAX is warm and the folder is watched: within 60 s
    time.sleep(0.5)
    shutil.copy(SOLUTIONS / "autodiff" / "cumsum.py", two_stubs / "autodiff" / "cumsum.py")
    at = terminal.wait_for("✔ cumsum: PASS · correct on all", at, timeout=60)
    at = terminal.wait_for("cumsum passed → next: neg", at)
    terminal.wait_for("1/2 puzzles pass")  # above, in the same frame
    terminal.press(b"h")
    at = terminal.wait_for("Hint 1/3: Output $o$ depends only on input $o$", at)
    terminal.press(b"l")
    at = terminal.wait_for("press any key to go back", at)
    terminal.press(b"x")
    at = terminal.wait_for("q  quit", at)
    terminal.press(b"q")
    assert terminal.proc.wait(timeout=30) == 0
    terminal.wait_for("1/2 puzzles pass; next: neg", at)
    assert "Traceback" not in terminal.seen
    assert termios.tcgetattr(terminal.slave) == terminal.before  # cbreak mode undone


HANGS = "def jac(x):\n    while True:\n        pass\n"


def test_a_hanging_check_shows_its_time_and_a_new_save_replaces_it(two_stubs: Path) -> None:
    timeout = 12  # seconds per call: the hang would last that long without the new save
    terminal = Terminal(two_stubs, "--timeout", str(timeout))
    try:
        at = terminal.wait_for("watching")
        time.sleep(0.5)
        neg = two_stubs / "autodiff" / "neg.py"
        neg.write_text(HANGS)
        at = terminal.wait_for("checking neg… 1.", at, timeout=30)  # the time goes up
        at = terminal.wait_for("checking neg… 2.", at, timeout=10)
        saved = time.monotonic()
        shutil.copy(SOLUTIONS / "autodiff" / "neg.py", neg)
        at = terminal.wait_for("✔ neg: PASS", at, timeout=timeout)
        assert time.monotonic() - saved < timeout - 3  # stopped: it did not wait for the time limit
        assert "did not return within" not in terminal.seen
        terminal.wait_for("watching", at)  # the watch goes on
        terminal.press(b"q")
        assert terminal.proc.wait(timeout=30) == 0
        assert "Traceback" not in terminal.seen
    finally:
        terminal.close()


def test_q_stops_a_hanging_check_and_quits(two_stubs: Path) -> None:
    terminal = Terminal(two_stubs, "--timeout", "30")
    try:
        at = terminal.wait_for("watching")
        time.sleep(0.5)
        (two_stubs / "autodiff" / "neg.py").write_text(HANGS)
        terminal.wait_for("checking neg… 1.", at, timeout=30)
        pressed = time.monotonic()
        terminal.press(b"q")
        assert terminal.proc.wait(timeout=20) == 0
        assert time.monotonic() - pressed < 10
        assert "Traceback" not in terminal.seen
    finally:
        terminal.close()


def test_without_a_terminal_a_new_save_stops_a_hanging_check(two_stubs: Path) -> None:
    env = {**os.environ, "COLUMNS": "120"}
    env.pop("JACPUZZLES_POLL", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "checker", "watch", "--dir", str(two_stubs), "--timeout", "12"], cwd=REPO, env=env,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        assert proc.stdout is not None
        assert "watching" in proc.stdout.readline()
        time.sleep(1.0)
        neg = two_stubs / "autodiff" / "neg.py"
        neg.write_text(HANGS)
        line = ""
        while " neg " not in line:  # the rule printed as the check of the hanging answer starts
            line = proc.stdout.readline()
            assert line, "the watch ended"
        time.sleep(1.5)  # into the check (still warming up JAX, or in the hang: both are stopped)
        saved = time.monotonic()
        shutil.copy(SOLUTIONS / "autodiff" / "neg.py", neg)
        seen = ""
        while "✔ neg: PASS" not in seen and time.monotonic() - saved < 30:
            seen += proc.stdout.readline()
        assert "stopped checking neg: saved again, checking the new version" in seen
        assert "✔ neg: PASS" in seen and time.monotonic() - saved < 9
        assert "did not return within" not in seen
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_ctrl_c_ends_the_watch_with_0_and_restores_the_terminal(terminal: Terminal) -> None:
    terminal.wait_for("current: neg")
    time.sleep(0.3)
    terminal.press(b"\x03")  # Ctrl-C, typed on the terminal, while JAX is still warming up
    assert terminal.proc.wait(timeout=30) == 0
    terminal.wait_for("0/2 puzzles pass; next: neg")
    assert "Traceback" not in terminal.seen and "Fatal" not in terminal.seen
    assert termios.tcgetattr(terminal.slave) == terminal.before


def test_a_watch_ended_while_jax_warms_up_ends_the_process_with_its_code(
    two_stubs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Python's finalization would stop the warm-up inside XLA's C++ code (SIGABRT, seen under
    load in the test above): the watch ends the process itself, its screen written out."""
    import threading

    from checker.learner import _watch

    warming = threading.Event()

    def ended_while_warming(runner: _watch._Watch, console: Console, why: str | None) -> int:
        runner.warming = threading.Thread(target=warming.wait, daemon=True)
        runner.warming.start()
        console.print("0/2 puzzles pass; next: neg")
        return 0

    ended: list[int] = []
    monkeypatch.setattr(_watch, "_lines", ended_while_warming)
    monkeypatch.setattr(_watch.os, "_exit", ended.append)
    shown = io.StringIO()
    try:
        assert _watch.run(two_stubs, 0, 10.0, Console(file=shown)) == 0
    finally:
        warming.set()
    assert ended == [0]
    assert "0/2 puzzles pass" in shown.getvalue()

    monkeypatch.setattr(_watch, "_lines", lambda runner, console, why: 0)  # no warm-up left running
    ended.clear()
    assert _watch.run(two_stubs, 0, 10.0, Console(file=io.StringIO())) == 0
    assert ended == []


def test_without_a_terminal_verdicts_are_lines_and_polling_can_be_asked_for(two_stubs: Path) -> None:
    env = {**os.environ, "COLUMNS": "120", "JACPUZZLES_POLL": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "checker", "watch", "--dir", str(two_stubs)], cwd=REPO, env=env,
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        assert proc.stdout is not None
        assert "watching" in proc.stdout.readline()
        assert "polling every 100 ms (JACPUZZLES_POLL=1)" in proc.stdout.readline()
        time.sleep(1.0)
        shutil.copy(SOLUTIONS / "autodiff" / "neg.py", two_stubs / "autodiff" / "neg.py")
        seen = ""
        deadline = time.monotonic() + 60
        while "next: cumsum" not in seen and time.monotonic() < deadline:
            seen += proc.stdout.readline()
        assert "✔ neg: PASS" in seen
        assert "neg passed → next: cumsum" in seen
    finally:
        proc.terminate()
        proc.wait(timeout=30)


# --- polling ---------------------------------------------------------------------------------


def _events_after(saves: list[str], folder: Path, polling: bool) -> list[tuple[str, object]]:
    """The events the file watcher reports for `saves` written to neg.py, each once the watcher
    reported the one before (or 10 s passed): on a loaded machine a fixed pause let the poller
    see two saves as one."""
    import queue
    import threading

    from checker.learner._watch import _watch_files

    events: queue.Queue[tuple[str, object]] = queue.Queue()
    stop = threading.Event()
    watcher = threading.Thread(target=_watch_files, args=(folder, events, stop, polling), daemon=True)
    watcher.start()
    time.sleep(0.5)
    neg = folder / "autodiff" / "neg.py"
    found: list[tuple[str, object]] = []
    for text in saves:
        neg.write_text(text)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                found.append(events.get(timeout=0.1))
            except queue.Empty:
                continue
            if found[-1][0] == "files":
                break
        time.sleep(0.05)  # a distinct save after the reported one
    time.sleep(0.5)
    stop.set()
    watcher.join(timeout=10)
    while not events.empty():
        found.append(events.get())
    return found


def test_polling_sees_two_saves_within_the_same_second(two_stubs: Path) -> None:
    neg = two_stubs / "autodiff" / "neg.py"
    found = _events_after(["def jac(x):\n    return 1\n", "def jac(x):\n    return 2\n"], two_stubs, polling=True)
    assert found == [("files", {neg}), ("files", {neg})]


def test_the_watch_polls_when_file_events_fail(two_stubs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import watchfiles

    def no_events(*args: object, **kwargs: object) -> object:
        raise OSError("OS file watch limit reached")

    monkeypatch.setattr(watchfiles, "watch", no_events)
    found = _events_after(["def jac(x):\n    return 1\n"], two_stubs, polling=False)
    assert found[0] == ("polling", "file events unavailable (OS file watch limit reached); polling every 100 ms")
    assert found[1:] == [("files", {two_stubs / "autodiff" / "neg.py"})]


def test_watch_draws_its_screen_only_with_posix_terminal_control(monkeypatch: pytest.MonkeyPatch) -> None:
    """On Windows (no termios, no `select` on a terminal) watch prints a verdict per save instead
    of its screen, rather than failing at the first key."""
    from rich.console import Console

    from checker.learner import _watch

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    console = Console(file=io.StringIO(), force_terminal=True)
    assert _watch.interactive_screen(console) is True
    monkeypatch.setitem(sys.modules, "termios", None)  # import termios: ImportError
    assert _watch.interactive_screen(console) is False
    monkeypatch.delitem(sys.modules, "termios")
    monkeypatch.setattr(_watch.os, "name", "nt")
    assert _watch.interactive_screen(console) is False
