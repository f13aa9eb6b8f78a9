"""How soon `jacpuzzles watch` shows a verdict after a save, as ratios to the goal and to JAX.

    python bench/watch.py [--saves N] [--poll]

Starts `jacpuzzles watch` on a pseudo-terminal (the screen a learner sees) over a folder holding
the stubs of neg and cumsum, waits until the screen says it is watching (JAX imported and the
current puzzle's expected Jacobians computed in the background), then saves cumsum N times,
alternating a new wrong answer (a different constant: new code, compiled) and the right one
(the same code again, found in JAX's compilation cache), each time with different text, and times
each save until its verdict is on the screen. The first save of cumsum
also computes cumsum's expected Jacobians (with an empty cache: the first check after
installing); it is reported apart. Goal: a re-check within 0.3 s of the save. `--poll` measures
the polling fallback (`JACPUZZLES_POLL=1`) instead of file events.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import select
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GOAL = 0.3  # seconds from the save to the verdict on screen
ANSI = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-Za-z]|\x1b[=>78]")
RIGHT = "Is = np.arange(10)\nOs = np.arange(10)[:, None]\n\n\ndef jac(x):  # save {k}\n    return (Is <= Os) / 20\n"
WRONG = (
    "Is = np.arange(10)\nOs = np.arange(10)[:, None]\n\n\ndef jac(x):  # save {k}\n    return (Is <= Os) / {wrong}\n"
)


class Screen:
    """The watch on a pseudo-terminal; `until` reads it until a text shows up."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        argv = [sys.executable, "-m", "checker", "watch", "--dir", str(folder)]
        self.proc = subprocess.Popen(
            argv, cwd=REPO, env=env, stdin=slave, stdout=slave, stderr=slave, start_new_session=True
        )
        os.close(slave)
        self.raw = b""

    def until(self, text: str, after: int, timeout: float = 120) -> tuple[float, int]:
        """Read until `text` is shown after byte `after` of the stripped output: (when, where)."""
        deadline = time.monotonic() + timeout
        wanted = text.encode()
        while time.monotonic() < deadline:
            found = ANSI.sub(b"", self.raw).find(wanted, after)
            if found >= 0:
                return time.perf_counter(), found + len(wanted)
            ready, _, _ = select.select([self.master], [], [], 0.002)
            if ready:
                self.raw += os.read(self.master, 1 << 16)
        shown = "\n".join(
            line.rstrip()
            for line in ANSI.sub(b"", self.raw)[-8000:].decode(errors="replace").splitlines()
            if line.strip()
        )
        raise SystemExit(
            f"{text!r} never showed up (the watch "
            f"{'ended with ' + str(self.proc.returncode) if self.proc.poll() is not None else 'runs'}); the screen "
            f"showed:\n{shown[-3000:]}"
        )

    @property
    def end(self) -> int:
        return len(ANSI.sub(b"", self.raw))

    def quit(self) -> None:
        if self.proc.poll() is None:
            os.write(self.master, b"q")
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        os.close(self.master)


def _bare() -> float:
    """Median of 3 runs of a bare `python -c 'import jax.numpy'`."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import jax.numpy"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--saves", type=int, default=10)
    parser.add_argument("--poll", action="store_true", help="measure the polling fallback (JACPUZZLES_POLL=1)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="jacpuzzles-bench-watch-"))
    folder = work / "puzzles" / "autodiff"
    folder.mkdir(parents=True)
    for name in ("neg", "cumsum"):
        shutil.copy(REPO / "puzzles" / "autodiff" / f"{name}.py", folder / f"{name}.py")
    stub = (folder / "cumsum.py").read_text()
    header = stub[: stub.index("def jac")]
    env = {
        **os.environ,
        "TERM": "xterm",
        "COLUMNS": "120",
        "LINES": "40",
        "JACPUZZLES_CACHE": str(work / "cache"),
        "JACPUZZLES_POLL": "1" if args.poll else "0",
    }
    bare = _bare()

    start = time.perf_counter()
    screen = Screen(work / "puzzles", env)
    latencies = []
    try:
        drawn, at = screen.until("current: neg", 0)
        warm, at = screen.until("watching", at)
        time.sleep(0.5)
        for k in range(2, args.saves + 2):
            body, marker = (RIGHT, "cumsum passed → next: neg") if k % 2 else (WRONG, "✘ cumsum: FAIL")
            at = screen.end
            (folder / "cumsum.py").write_text(header + body.format(k=k, wrong=k + 20))  # 20 would be right
            saved = time.perf_counter()
            shown, at = screen.until(marker, at)
            latencies.append(shown - saved)
            time.sleep(0.3)  # a learner does not save twice within the same verdict
    finally:
        screen.quit()
        shutil.rmtree(work, ignore_errors=True)

    first, rest = latencies[0], latencies[1:]
    cached = [s for k, s in enumerate(rest, 3) if k % 2]  # the right answer again: its code is cached
    fresh = [s for k, s in enumerate(rest, 3) if not k % 2]  # a new wrong answer: compiled afresh
    how = "polling every 100 ms" if args.poll else "file events"
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores, {how}, {len(latencies)} saves; bare `import "
        f"jax.numpy`: {bare:.2f} s"
    )
    print(f"{'measure':52} {'s':>6} {'x goal':>7} {'x bare':>7}")
    rows = [
        ("screen drawn, from start", drawn - start, None),
        ("JAX warm (watching), from start", warm - start, None),
        ("first save -> verdict (computes cumsum's oracles)", first, GOAL),
        (f"re-check after a save, median of {len(rest)}", statistics.median(rest), GOAL),
        ("re-check after a save, min", min(rest), GOAL),
        ("re-check after a save, max", max(rest), GOAL),
        (f"  right answer again (code cached): median of {len(cached)}", statistics.median(cached), GOAL),
        (f"  new wrong answer (compiled): median of {len(fresh)}", statistics.median(fresh), GOAL),
    ]
    for name, seconds, goal in rows:
        ratio = f"{seconds / goal:7.2f}" if goal else f"{'':7}"
        print(f"{name:52} {seconds:6.3f} {ratio} {seconds / bare:7.2f}")
    met = statistics.median(rest) <= GOAL
    print(f"goal: a re-check within {GOAL} s of the save: {'met' if met else 'MISSED'} (median)")


if __name__ == "__main__":
    main()
