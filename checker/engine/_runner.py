"""Running a learner's answer: load `jac` from a file, call it on every draw, read what it returns.

This is the only module that executes learner code. Here it runs in-process (a learner checking
their own file); class grading swaps in an out-of-process runner with the same `run` contract,
so the judge and the reports never know which one ran. Results come back as plain numpy arrays.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib.util
import inspect
import io
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

import numpy as np

from checker.engine import _forms, _integrity, _numerics, _source_scan
from checker.engine._catalog import Puzzle
from checker.engine._sampling import Draw
from checker.engine._settings import DEFAULT_TIMEOUT, OUTPUT_CAP
from checker.engine._stubs import _is_untouched as _stubs_untouched, stub
from checker.engine._verdict import Kind, Status, counted, draw_phrase


@dataclass(frozen=True)
class Problem:
    """Why the answer could not be judged on values: the runner's verdict, in learner terms."""

    kind: Kind
    message: str
    location: str | None = None  # "cumsum.py:14: return np.tri(10) / 20"
    draw: str | None = None
    status: Status = Status.ERROR


@dataclass(frozen=True)
class Run:
    """What running an answer produced: for each draw, the Jacobian blocks, or a problem."""

    answers: tuple[tuple[np.ndarray, ...], ...] = ()
    problem: Problem | None = None
    output: str = ""


class _Timeout(BaseException):
    """Raised inside learner code by the alarm; a BaseException so `except Exception` can't eat it."""


class _Exited(BaseException):
    """`os._exit` called by learner code, turned into an exception so the run goes on."""

    def __init__(self, status: object) -> None:
        super().__init__(status)
        self.status = status


# Set by the kit's own SIGINT handler: a KeyboardInterrupt is the learner's Ctrl-C only then;
# otherwise learner code raised it, and it is that answer's error like any other exception.
_ctrl_c = threading.Event()
# Set by the watchdog (`_time_limit` without SIGALRM) before it interrupts the main thread: the
# SIGINT that follows is the time limit, not the learner's Ctrl-C.
_expired = threading.Event()


@contextlib.contextmanager
def _guarded() -> Iterator[None]:
    """While learner code runs: autodiff and the kit are refused (`_integrity`), `os._exit`
    raises instead of ending the process, and Ctrl-C is told apart from a KeyboardInterrupt the
    code raises itself."""
    real_exit = os._exit
    owner = os.getpid()

    def fake_exit(status: int = 0) -> None:
        if os.getpid() != owner:  # a process the learner's code forked: it ends as it asked
            real_exit(status)
        raise _Exited(status)

    # Before the snapshot, so that the guards' stand-ins for `jax.jacfwd` etc. stay in place,
    # and before refusing `gc.get_objects`, which finding JAX's own primitives needs.
    _integrity.install_guards(always=False)
    own_primitives()
    os._exit = fake_exit  # type: ignore[assignment]
    # Left set by a Ctrl-C whose KeyboardInterrupt ended an earlier run (a notebook's interrupt,
    # watch stopping a check): stale, or the next run would end with a Ctrl-C nobody pressed.
    _ctrl_c.clear()
    saved = _snapshot()
    previous = None
    if threading.current_thread() is threading.main_thread():
        def on_sigint(signum: int, frame: FrameType | None) -> None:
            if _expired.is_set():  # the watchdog's interrupt, delivered
                _expired.clear()
                raise _Timeout()
            _ctrl_c.set()
            raise KeyboardInterrupt

        previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        with _integrity.armed():
            yield
    finally:
        if os.getpid() != owner:  # a process the learner's code forked, on its way out of that
            real_exit(70)  # code: it never goes on as the checker
        os._exit = real_exit
        _restore(saved)
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if _ctrl_c.is_set():  # learner code may have swallowed it: the learner still wants out
        _ctrl_c.clear()
        raise KeyboardInterrupt


# Modules whose attributes the kit's own computations look up: an answer that replaces one
# (`jnp.cos = ...`) has it put back once the answer has run, so later checks in the same process
# (watch, a notebook) compute their expected Jacobians with the real thing.
_PROTECTED = ("jax", "jax.numpy", "jax.lax", "jax.nn", "numpy")


def _snapshot() -> dict[str, dict[str, Any]]:
    return {name: dict(vars(sys.modules[name])) for name in _PROTECTED if name in sys.modules}


def _restore(saved: dict[str, dict[str, Any]]) -> None:
    for name, before in saved.items():
        namespace = vars(sys.modules[name])
        for key, value in before.items():  # names added since (a submodule imported) stay
            if namespace.get(key, _MISSING) is not value:
                setattr(sys.modules[name], key, value)


_MISSING = object()


def _learners(exc: BaseException) -> BaseException:
    """`exc` when it is the learner code's own doing; the kit's own signals are raised again."""
    if isinstance(exc, _Timeout) or (isinstance(exc, KeyboardInterrupt) and _ctrl_c.is_set()):
        raise exc
    return exc


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    # SIGALRM interrupts a busy loop in pure Python; it exists only in the main thread on Unix.
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return
    if not hasattr(signal, "setitimer"):  # Windows: a watchdog thread instead
        with _watchdog(seconds):
            yield
        return

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise _Timeout()

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _watchdog(seconds: float) -> Iterator[None]:
    """The time limit without SIGALRM: a thread that, after `seconds`, interrupts the main thread
    (`_thread.interrupt_main`, a simulated SIGINT that the kit's handler turns into `_Timeout`).

    Python delivers it between two bytecodes only: a loop in pure Python is stopped, but one call
    into C that never returns (a huge `np.linalg` call, a blocking read) is not, and the check
    waits for it; on POSIX, SIGALRM has the same limit.
    """
    import _thread

    lock = threading.Lock()
    finished = False

    def expire() -> None:
        with lock:
            if finished:
                return
            _expired.set()
        _thread.interrupt_main()

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    _expired.clear()
    timer.start()
    try:
        yield
    except KeyboardInterrupt:
        if _expired.is_set():  # SIGINT's handler was not the kit's: the interrupt is still the limit
            _expired.clear()
            raise _Timeout() from None
        raise
    finally:
        with lock:
            finished = True
        timer.cancel()
        if _expired.is_set():  # fired, not yet delivered
            _absorb_expiry()


def _absorb_expiry() -> None:
    """Take the watchdog's interrupt, fired as the code ended, before the kit's code runs on
    (at most a second's wait); the run is then over its limit: `_Timeout`."""
    try:
        deadline = time.monotonic() + 1.0
        while time.monotonic() < deadline:
            time.sleep(0.005)
    except (KeyboardInterrupt, _Timeout):
        pass
    finally:
        _expired.clear()
    raise _Timeout()


class _Capture(io.StringIO):
    """Learner output, kept up to a cap so a print in a loop cannot fill memory."""

    def write(self, s: str) -> int:
        room = OUTPUT_CAP - self.tell()
        if room > 0:
            super().write(s[:room])
        return len(s)


def _location(exc: BaseException, path: Path) -> str | None:
    """The last line of the learner's file that the exception passed through."""
    if isinstance(exc, SyntaxError) and exc.lineno is not None:
        return f"{path.name}:{exc.lineno}: {(exc.text or '').strip()}"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if Path(f.filename).resolve() == path.resolve()]
    if not frames:
        return None
    last = frames[-1]
    return f"{path.name}:{last.lineno}: {(last.line or '').strip()}"


def _describe(exc: BaseException) -> str:
    if isinstance(exc, SystemExit):
        return f"SystemExit (exit(), quit() or sys.exit() was called, status {exc.code!r})"
    if isinstance(exc, _Exited):
        return f"an exit (os._exit({exc.status!r}) was called)"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _load(path: Path) -> ModuleType:
    own_primitives()  # before any learner code: what JAX itself defines
    name = f"_jacpuzzles_answer_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path} as a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _advice(exc: BaseException) -> str:
    if isinstance(exc, (SystemExit, _Exited)):
        return ": an answer returns its Jacobian and must not end the program; remove that call"
    return ""


def precheck(puzzle: Puzzle, path: Path) -> Run | None:
    """The verdict on a file that cannot run (missing, unreadable, the untouched stub), or None."""
    if not path.is_file():
        return Run(problem=Problem(Kind.MISSING, f"no answer file: {path} does not exist", status=Status.TODO))
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        return Run(
            problem=Problem(
                Kind.EXCEPTION,
                f"cannot read {path}: it is not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8",
            )
        )
    except OSError as exc:
        return Run(problem=Problem(Kind.EXCEPTION, f"cannot read {path}: {exc.strerror or exc}"))
    if text == stub(puzzle):
        return Run(problem=Problem(Kind.UNTOUCHED, "the stub is untouched: fill in `jac`", status=Status.TODO))
    findings = _source_scan.scan(text)
    if findings:  # as the grader refuses it, before running it: named as a submission names it
        return Run(problem=Problem(Kind.FORBIDDEN, _source_scan.describe(findings, f"{path.parent.name}/{path.name}")))
    return None


def run(puzzle: Puzzle, path: Path, draws: tuple[Draw, ...], timeout: float = DEFAULT_TIMEOUT) -> Run:
    """Load `jac` from `path` and call it on every draw.

    Stops at the first draw that raises; a draw that merely returns a wrong value is the judge's
    business, not this function's. Nothing the file does ends the run: `exit()`, `os._exit` and
    any other exception are this answer's error.
    """
    early = precheck(puzzle, path)
    if early is not None:
        return early
    return _captured(lambda captured: _run_loaded(puzzle, path, draws, timeout, captured))


def _run_loaded(puzzle: Puzzle, path: Path, draws: tuple[Draw, ...], timeout: float, captured: _Capture) -> Run:
    try:
        with _time_limit(timeout):
            module = _load(path)
    except _Timeout:
        return Run(problem=Problem(Kind.TIMEOUT, f"importing {path.name} did not finish within {timeout:g} s"))
    except BaseException as exc:  # noqa: BLE001 - anything the learner's module raises is reported
        _learners(exc)
        return Run(
            problem=Problem(
                Kind.EXCEPTION, f"{path.name} does not import: {_describe(exc)}{_advice(exc)}", _location(exc, path)
            )
        )
    _numerics.repin()  # the module may have changed JAX's settings at import
    try:
        jac = getattr(module, puzzle.answer_name, None)
    except BaseException as exc:  # noqa: BLE001 - a module __getattr__ is learner code too
        _learners(exc)
        return Run(
            problem=Problem(Kind.EXCEPTION, f"{path.name}: looking up `{puzzle.answer_name}` raised {_describe(exc)}")
        )
    chosen = _answer_in(puzzle, module, jac, path)
    if isinstance(chosen, Problem):
        return Run(problem=chosen)
    return _call_each(puzzle, chosen, draws, timeout, path, captured)


def _answer_in(puzzle: Puzzle, module: ModuleType, jac: Any, path: Path) -> Any:
    """The function to call: `jac`, or a per-entry `fb_<name>` wrapped as one (`_forms`); a
    Problem when there is neither, or both.

    When the file defines both, the stub's own `jac` (only `raise NotImplementedError`) is left
    over from the stub and `fb_<name>` is taken; any other `jac` makes the choice ambiguous.
    """
    fb_name = _forms.fb_name(puzzle)
    try:
        fb = getattr(module, fb_name, None)
    except BaseException as exc:  # noqa: BLE001 - a module __getattr__ is learner code too
        _learners(exc)
        return Problem(Kind.EXCEPTION, f"{path.name}: looking up `{fb_name}` raised {_describe(exc)}")
    if not callable(fb):
        if not callable(jac):
            return Problem(
                Kind.MISSING, f"{path.name} defines no function `{puzzle.answer_name}`: add `{puzzle.jac_signature()}`"
            )
        return jac
    if not _forms.applies(puzzle):
        if callable(jac):
            return jac
        return Problem(
            Kind.MISSING,
            f"{path.name} defines `{fb_name}` but no `{puzzle.answer_name}`: {_forms.not_applicable(puzzle)}",
        )
    if callable(jac) and not _is_stub_jac(jac):
        return Problem(
            Kind.STRUCTURE,
            (
                f"{path.name} defines both `jac` and `{fb_name}`, two answers to one puzzle, and the checker will not "
                "guess "
                f"which one you mean: delete (or rename) the one you are not using"
            ),
        )
    wrong = _forms.signature_problem(puzzle, fb)
    if wrong is not None:
        return Problem(Kind.SIGNATURE, wrong)
    return _forms.per_entry(puzzle, fb)


def _is_stub_jac(jac: Any) -> bool:
    """Whether `jac` is the stub's, left in the file: its whole source is the signature and the raise."""
    try:
        source = inspect.getsource(jac)
    except (OSError, TypeError):
        return False
    return _stubs_untouched(source)


def run_callable(puzzle: Puzzle, jac: Any, draws: tuple[Draw, ...], timeout: float = DEFAULT_TIMEOUT) -> Run:
    """Call an already-loaded `jac` (a notebook cell's function) on every draw."""
    if not callable(jac):
        return Run(
            problem=Problem(Kind.MISSING, f"expected a function `{puzzle.answer_name}`, got a {type(jac).__name__}")
        )
    path = Path(inspect.getsourcefile(jac) or "<notebook>") if inspect.isfunction(jac) else Path("<notebook>")
    if getattr(jac, "__name__", None) == _forms.fb_name(puzzle):  # a per-entry answer, by its name
        if not _forms.applies(puzzle):
            return Run(problem=Problem(Kind.MISSING, _forms.not_applicable(puzzle)))
        wrong = _forms.signature_problem(puzzle, jac)
        if wrong is not None:
            return Run(problem=Problem(Kind.SIGNATURE, wrong))
        jac = _forms.per_entry(puzzle, jac)
    return _captured(lambda captured: _call_each(puzzle, jac, draws, timeout, path, captured))


def _captured(body: Callable[[_Capture], Run]) -> Run:
    """Run `body` with the learner's stdout and stderr captured into the result, guarded."""
    captured = _Capture()
    _integrity.used()  # nothing before this answer counts against it
    with _guarded(), contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
        result = body(captured)
    _numerics.repin()
    used = _integrity.used()
    if used:  # autodiff or the kit, reached while it ran: refused, even if the answer caught it
        return Run(problem=Problem(Kind.FORBIDDEN, _integrity.message(used)), output=captured.getvalue())
    return Run(result.answers, result.problem, captured.getvalue())


def _too_slow(puzzle: Puzzle, timeout: float, draw: Draw) -> Run:
    return Run(
        problem=Problem(
            Kind.TIMEOUT,
            f"{puzzle.answer_name} did not return within {timeout:g} s on {draw_phrase(draw.label)}",
            draw=draw.label,
        )
    )


def _inputs(puzzle: Puzzle, values: tuple[np.ndarray, ...]) -> list[Any]:
    """A draw as the answer receives it: arrays, and each static argument as a Python int."""
    import jax.numpy as jnp

    return [a.static if a.static is not None else jnp.asarray(v) for a, v in zip(puzzle.args, values)]


def _call_each(
    puzzle: Puzzle, jac: Any, draws: tuple[Draw, ...], timeout: float, path: Path, captured: _Capture
) -> Run:
    names = [a.name for a in puzzle.args]
    try:
        inspect.signature(jac).bind(*names)
    except TypeError:
        name = puzzle.answer_name
        takes = "f's arguments, then the upstream gradient g" if puzzle.is_vjp else "the same arguments as f"
        return Run(problem=Problem(
            Kind.SIGNATURE,
            f"{name}{inspect.signature(jac)} cannot be called like {name if puzzle.is_vjp else puzzle.name}"
            f"({', '.join(names)}): {name} takes {takes}",
        ))
    except ValueError:
        pass  # builtins without a signature: just call them

    fast = _call_jitted(puzzle, jac, draws, timeout, captured)
    if fast is not None:
        return fast

    answers = []
    name = getattr(jac, "_jacpuzzles_name", puzzle.answer_name)  # `fb_cumsum` for the per-entry form
    for draw in draws:
        args = _inputs(puzzle, draw.values)
        try:
            with _time_limit(timeout):
                raw = jac(*args)
        except _Timeout:
            return _too_slow(puzzle, timeout, draw)
        except NotImplementedError as exc:
            return Run(
                problem=Problem(
                    Kind.UNTOUCHED,
                    f"{name} raises NotImplementedError: fill it in",
                    _location(exc, path),
                    status=Status.TODO,
                )
            )
        except _forms.FormError as exc:  # a per-entry answer, unusable as written: the message names the entry
            cause = exc.__cause__ if exc.__cause__ is not None else exc
            return Run(
                problem=Problem(
                    exc.kind, f"{exc.message} on {draw_phrase(draw.label)}", _location(cause, path), draw.label
                )
            )
        except BaseException as exc:  # noqa: BLE001 - whatever jac raises is this answer's error
            _learners(exc)
            return Run(
                problem=Problem(
                    Kind.EXCEPTION,
                    f"{name} raised {_describe(exc)} on {draw_phrase(draw.label)}{_advice(exc)}",
                    _location(exc, path),
                    draw.label,
                )
            )
        blocks = _blocks(puzzle, raw)
        if isinstance(blocks, Problem):
            return Run(problem=Problem(blocks.kind, blocks.message, draw=draw.label, status=blocks.status))
        answers.append(blocks)
    return Run(tuple(answers))


def _call_jitted(puzzle: Puzzle, jac: Any, draws: tuple[Draw, ...], timeout: float, captured: _Capture) -> Run | None:
    """Run `jac` under `jax.jit`, or None when the answer must run eagerly instead.

    Eager JAX compiles every operation separately on first use; one compilation of the whole
    answer is 5 to 13 times faster (bench/). Whatever jit cannot run as the learner wrote it
    (numpy calls on traced values, Python branches on values, any exception, a `print`, which
    would show tracers instead of numbers) falls back to the plain eager run, so the learner
    sees exactly what their code does.
    """
    import jax

    target = puzzle.on_dynamic(jac)  # a static size stays a Python int, not a traced value
    try:
        compiled = jax.jit(target, compiler_options=_numerics.compile_options(answers=True))
    except Exception:  # noqa: BLE001 - jit reads jac's attributes, learner code: run it eagerly
        return None
    start = captured.tell()
    first = puzzle.dynamic(draws[0].values)
    try:
        with _time_limit(timeout):
            before = _trace(compiled, first)  # jit keeps this trace for the runs below
    except _Timeout:
        return _too_slow(puzzle, timeout, draws[0])
    answers = []
    # Draws with entries a subnormal distance apart run the traced program op by op when the
    # answer compares floats (`Draw.subnormal_apart`, `_op_by_op`): those draws only.
    op_by_op: Any = None
    # The answer's program first: most compare no floats, and then no draw's entries need a look.
    apart = before is not None and _compares_floats(before) and any(d.subnormal_apart for d in draws)
    for draw in draws if before is not None else ():
        try:
            with _time_limit(timeout):
                program = compiled
                if apart and draw.subnormal_apart:
                    op_by_op = op_by_op or _op_by_op(compiled, first)
                    program = op_by_op
                raw = program(*puzzle.dynamic(draw.values))  # numpy in: no eager conversion per draw
        except _Timeout:
            return _too_slow(puzzle, timeout, draw)
        except BaseException as exc:  # noqa: BLE001 - the eager run reports it as the learner's code raises it
            _learners(exc)
            break
        if captured.tell() != start:
            break
        blocks = _blocks(puzzle, raw)
        if isinstance(blocks, Problem):
            break
        answers.append(blocks)
    else:
        # jit runs the Python body once and replays it: an answer that keeps state between calls
        # (right on its first call only, say) must trace the same before and after, or run eagerly.
        try:
            with _time_limit(timeout):
                after = _trace(lambda *args: target(*args), first)  # a new function: traced afresh
                same = before is not None and _same_trace(before, after)
        except _Timeout:
            same = False
        if same and captured.tell() == start:
            return Run(tuple(answers))
    captured.seek(start)
    captured.truncate()
    return None


_Trace = tuple[tuple[Any, ...], list[np.ndarray]]


def _op_by_op(compiled: Any, values: tuple[np.ndarray, ...]) -> Callable[..., Any]:
    """The program `compiled` traced on `values`' shapes (jit's cached trace: the body does not
    run again), run one operation at a time, as a plain call runs it.

    For draws with two entries a subnormal distance apart, in an answer that compares floats:
    op by op, XLA on CPU flushes a subnormal result to 0, while inside one fused loop LLVM folds
    `(a - b) > 0` into `a > b`, so an answer deciding by the sign of the difference of 3e-308
    and 2.5e-308 was right compiled and wrong when called (red team RT22: max_pool, sort). Each
    operation is compiled once per process and shape, and reused by every answer after it."""
    import jax
    import jax.numpy as jnp
    from jax.extend.core import jaxpr_as_fun

    traced = compiled.trace(*[jnp.asarray(v) for v in values])
    run = jaxpr_as_fun(traced.jaxpr)
    tree: Any = jax.tree_util.tree_structure(traced.out_info)
    return lambda *args: tree.unflatten(run(*args))


def _trace(fn: Any, values: tuple[np.ndarray, ...]) -> _Trace | None:
    """What `fn` computes on these values' shapes, as a program and its constants (None if it
    won't trace).

    JAX caches traces by function: tracing the same function object twice runs its body once.
    """
    import jax
    import jax.numpy as jnp

    args = [jnp.asarray(v) for v in values]
    refused = _REFUSED_CONCRETE[0]
    try:
        closed = fn.trace(*args).jaxpr if hasattr(fn, "trace") else jax.make_jaxpr(fn)(*args)
    except BaseException as exc:  # noqa: BLE001 - exit() too: the eager run reports what it was
        _learners(exc)
        return None
    if _REFUSED_CONCRETE[0] != refused or not traceable(closed.jaxpr):
        return None
    try:
        return _program(closed.jaxpr), [np.asarray(c) for c in closed.consts]
    except BaseException as exc:  # noqa: BLE001 - a parameter of the learner's own making: run it plainly
        _learners(exc)
        return None


_COMPARISONS = frozenset({"gt", "lt", "ge", "le", "eq", "ne", "sign"})


def _compares_floats(trace: _Trace) -> bool:
    """Whether a traced program compares floats (or takes their sign), nested programs included."""

    def walk(program: tuple[Any, ...]) -> bool:
        for primitive, params, operands, *_ in program[2]:
            if primitive.name in _COMPARISONS and any(_is_float(atom) for atom in operands):
                return True
            if any(walk(nested) for nested in _nested(params)):
                return True
        return False

    return walk(trace[0])


def _is_float(atom: Any) -> bool:
    aval = atom[-1] if isinstance(atom, tuple) else None
    dtype = getattr(aval, "dtype", None)
    return dtype is not None and np.dtype(dtype).kind == "f"


def _nested(value: Any) -> Iterator[tuple[Any, ...]]:
    """The programs among a `_program` equation's parameters (nested tuples of plain data)."""
    if _is_program(value):
        yield value
    elif isinstance(value, tuple):
        for inner in value:
            yield from _nested(inner)


def _is_program(value: Any) -> bool:
    return (isinstance(value, tuple) and len(value) == 5 and isinstance(value[2], tuple)
            and all(isinstance(e, tuple) and len(e) == 5 and hasattr(e[0], "name") for e in value[2]))


def _same_trace(a: _Trace, b: _Trace | None) -> bool:
    if b is None:
        return False
    try:  # a parameter of the learner's own making may compare in strange ways: then not the same
        same = bool(a[0] == b[0])
    except BaseException as exc:  # noqa: BLE001 - even exit(): that is the learner's code too
        _learners(exc)
        return False
    return same and len(a[1]) == len(b[1]) and all(
        x.shape == y.shape and x.dtype == y.dtype and np.array_equal(x, y, equal_nan=True) for x, y in zip(a[1], b[1])
    )


def _program(jaxpr: Any) -> tuple[Any, ...]:
    """A traced program as plain data that compares equal exactly when two traces compute the
    same: every equation's primitive, parameters, operands and types, nested programs included,
    with each program's variables numbered in order of appearance.

    Printing the program says almost the same, several times slower (most of the cost of tracing
    an answer twice would be printing), but prints a function by its name: a callback whose closure is
    right on the first call only would print the same twice. Here a parameter that is not data
    (a function, a primitive) is kept as the object itself and compares by identity: two traces
    then differ, and the answer runs eagerly, where each call counts.
    """
    import jax
    from jax._src import core  # what `jax.extend.core` re-exports, without importing all of `jax.extend` (Pallas)

    def walk(j: Any) -> tuple[Any, ...]:
        known = _PROGRAMS.get(id(j))
        if known is not None and known[0] is j:  # library functions' programs: traced once, shared
            return known[1]
        numbers: dict[Any, int] = {}

        def atom(a: Any) -> Any:
            if isinstance(a, core.Literal):
                return ("literal", _data(a.val), a.aval)
            return numbers.setdefault(a, len(numbers)), a.aval

        found = (
            tuple(atom(v) for v in j.constvars),
            tuple(atom(v) for v in j.invars),
            tuple(
                (e.primitive, params(e), tuple(atom(v) for v in e.invars), tuple(atom(v) for v in e.outvars), e.effects)
                for e in j.eqns
            ),
            tuple(atom(v) for v in j.outvars),
            j.effects,
        )
        if len(_PROGRAMS) > 10_000:
            _PROGRAMS.clear()
        _PROGRAMS[id(j)] = (j, found)
        return found

    def params(eqn: Any) -> tuple[Any, ...]:
        rules = _AD_RULES if eqn.primitive.name in ("custom_jvp_call", "custom_vjp_call") else ()
        return tuple((k, "rule" if k in rules else param(v)) for k, v in sorted(eqn.params.items()))

    def param(value: Any) -> Any:
        if isinstance(value, core.ClosedJaxpr):
            return ("closed", walk(value.jaxpr), tuple(_data(c) for c in value.consts))
        if isinstance(value, core.Jaxpr):
            return ("jaxpr", walk(value))
        if isinstance(value, dict):
            return tuple((k, param(v)) for k, v in sorted(value.items()))
        if isinstance(value, (tuple, list)):
            return tuple(param(v) for v in value)
        if isinstance(value, (np.ndarray, np.generic, jax.Array)):
            return _data(value)
        return value  # functions among them: the same object or not (a callback's closure may keep state)

    return walk(jaxpr)


_PROGRAMS: dict[int, tuple[Any, tuple[Any, ...]]] = {}  # id -> (program, `_program` of it)
# Parameters of custom derivative rules: made anew by every trace, and unused by the values
# computed (those come from `call_jaxpr`), so two traces are not told apart by them.
_AD_RULES = frozenset({"jvp_jaxpr_fun", "jvp_jaxpr_thunk", "fwd_jaxpr_thunk", "bwd", "out_trees"})


def traceable(jaxpr: Any, batched: bool = False) -> bool:
    """Whether a traced program computes what calling the answer plainly would: only JAX's own
    primitives (one the answer makes may compute one thing when compiled and another when
    called), and no callback into Python (it may read state that the answer's calls change).
    `batched`: also under `vmap`, so no batching rule of the answer's own (`custom_vmap`)."""
    own = own_primitives()
    return all(
        id(q) in own and "callback" not in q.name and not (batched and q.name == "custom_vmap_call")
        for q in _primitives(jaxpr)
    )


_PRELOAD = ("jaxtyping", "jaxlib.mlir.dialects.mhlo", "jaxlib.mlir.dialects.builtin", "jaxlib.mlir.extras.meta")


# Objects already frozen when this module is imported (Python 3.12 freezes some at start-up);
# the zygote freezes its heap later, once `own_primitives` has run: more frozen than this means
# it ran too late.
_FROZEN_BEFORE = gc.get_freeze_count()


@functools.cache
def own_primitives() -> dict[int, Any]:
    """JAX's own primitives by id (kept, so that their ids stay theirs), found once, before any
    learner code runs (`_load`; the grader's zygote, before it forks and before `gc.freeze`,
    after which the collector no longer lists what it froze). Also starts counting the errors JAX raises when a traced
    value is used as a concrete one (`_REFUSED_CONCRETE`).

    `check_answer`, called from a notebook, finds them on its first call, after the notebook's
    own code has run: a primitive the learner made before that counts as JAX's own there (it
    fools only that notebook; files, `check` and the grader are not affected)."""
    import jax.nn  # what answers use, with the primitives they define
    import jax.numpy
    import jax.scipy.special  # noqa: F401 - imported for the primitives it defines
    from jax import errors

    # Loaded now, before any guard is armed, rather than by the answer: what every stub imports
    # (jaxtyping, 50 modules with its own imports) and what JAX loads to lower the answer's first
    # program. Each module imported while the guards are armed makes them look for new custom
    # derivative rules; 61 such looks were a tenth of a warm one-puzzle check.
    for name in _PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:  # another JAX version's layout: loaded later, when needed
            pass
    from jax._src.core import Primitive  # `jax.extend.core.Primitive`; `jax.extend` imports Pallas, 0.1 s

    if gc.get_freeze_count() > _FROZEN_BEFORE:  # the frozen heap is not listed: the answer would be "none"
        raise RuntimeError("JAX's own primitives must be found before gc.freeze()")
    for error in (
        errors.ConcretizationTypeError,
        errors.TracerArrayConversionError,
        errors.TracerBoolConversionError,
        errors.TracerIntegerConversionError,
    ):
        error.__init__ = _counted(error.__init__)  # type: ignore[method-assign]
    return {id(o): o for o in gc.get_objects() if isinstance(o, Primitive)}


def _counted(init: Callable[..., None]) -> Callable[..., None]:
    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        _REFUSED_CONCRETE[0] += 1
        init(self, *args, **kwargs)

    return counted


# How many times a traced value was refused where a concrete one was needed. Such an error that
# the answer catches means it took another way when traced than it takes when called plainly
# (`numpy` first, say): then its traces are not trusted, and it runs plainly on every draw.
_REFUSED_CONCRETE = [0]


def _data(value: Any) -> tuple[Any, ...]:
    array = np.asarray(value)
    return ("data", array.dtype.str, array.shape, array.tobytes())


def _primitives(jaxpr: Any) -> set[Any]:
    """The primitives a traced program uses, nested programs included."""
    found: set[Any] = set()
    for eqn in jaxpr.eqns:
        found.add(eqn.primitive)
        for value in eqn.params.values():
            for inner in value if isinstance(value, (tuple, list)) else (value,):
                nested = getattr(inner, "jaxpr", inner)
                if hasattr(nested, "eqns"):
                    found |= _primitives(nested)
    return found


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _blocks(puzzle: Puzzle, raw: Any) -> tuple[np.ndarray, ...] | Problem:
    """Read jac's return value as the puzzle's blocks, following jacfwd's nesting."""
    n_out, n_wrt = len(puzzle.outs), len(puzzle.wrt)
    wrt_names = ", ".join(a.name for a in puzzle.wrt)
    name, per_arg = (puzzle.answer_name, "cotangent") if puzzle.is_vjp else ("jac", "Jacobian")
    if n_out == 1:
        groups = [raw]
    else:
        if not isinstance(raw, (tuple, list)) or len(raw) != n_out:
            return Problem(
                Kind.STRUCTURE,
                f"f has {n_out} outputs, so {name} returns a tuple of {n_out} entries, one per output; got "
                f"{_shape_of_return(raw)}",
            )
        groups = list(raw)
    blocks: list[np.ndarray] = []
    shapes = iter(puzzle.jac_shapes())
    for group in groups:
        if n_wrt == 1:
            shape = next(shapes)
            if isinstance(group, (tuple, list)) and _reads_as(group, shape):
                parts = [group]  # a literal such as ((2.0,),): an array, as np.asarray reads it
            elif isinstance(group, tuple) and len(group) != 1:
                return Problem(
                    Kind.STRUCTURE,
                    f"got a tuple of {counted(len(group), 'entry')}, but f has one floating argument ({wrt_names}): "
                    "return a single array",
                )
            else:
                parts = [group[0] if isinstance(group, tuple) else group]
        else:
            integers = [a.name for a in puzzle.f_args if not a.differentiable]
            if isinstance(group, (tuple, list)) and integers and len(group) == n_wrt + len(integers):
                return Problem(
                    Kind.STRUCTURE,
                    f"got {len(group)} entries, one per argument, but {', '.join(integers)} "
                    f"{'is an integer' if len(integers) == 1 else 'are integers'} and "
                    f"get{'s' if len(integers) == 1 else ''} "
                    f"no Jacobian: return {_count(n_wrt, per_arg)}, for {wrt_names}",
                )
            if not isinstance(group, (tuple, list)) or len(group) != n_wrt or _is_number_list(group):
                return Problem(
                    Kind.STRUCTURE,
                    f"f has {n_wrt} floating arguments ({wrt_names}), so {name} returns a tuple of "
                    f"{_count(n_wrt, per_arg)}, one per argument in that order; got {_shape_of_return(group)}",
                )
            parts = list(group)
            for _ in parts:
                next(shapes)
        for part in parts:
            array = _as_array(part, name)
            if isinstance(array, Problem):
                return array
            blocks.append(array)
    return tuple(blocks)


def _reads_as(group: tuple[Any, ...] | list[Any], shape: tuple[int, ...]) -> bool:
    """Whether a tuple or list literal is an array of numbers of exactly the block's shape."""
    try:
        array = np.asarray(group)
    except BaseException as exc:  # noqa: BLE001 - ragged, or entries whose __array__ is learner code
        _learners(exc)
        return False
    return array.shape == shape and array.dtype.kind in "biuf"


def _is_number_list(group: Any) -> bool:
    # A list of plain numbers is an array-like row, not a tuple of Jacobians.
    return isinstance(group, list) and all(isinstance(v, (int, float, bool)) for v in group)


def _shape_of_return(raw: Any) -> str:
    if isinstance(raw, (tuple, list)):
        return f"a {type(raw).__name__} of {counted(len(raw), 'entry')}"
    shape = getattr(raw, "shape", None)
    return f"one array of shape {tuple(shape)}" if shape is not None else f"a {type(raw).__name__}"


def _as_array(part: Any, name: str) -> np.ndarray | Problem:
    if part is None:
        return Problem(Kind.NOT_NUMBERS, f"{name} returned None: did you forget `return`?")
    try:
        array = np.asarray(part)
    except BaseException as exc:  # noqa: BLE001 - ragged lists, or an __array__ that is learner code
        _learners(exc)
        return Problem(Kind.NOT_NUMBERS, f"{name}'s return value is not an array of numbers ({_describe(exc)})")
    if array.dtype.kind == "c":
        return Problem(
            Kind.NOT_NUMBERS,
            f"{name} returned complex numbers: the derivative of a real function is real",
            status=Status.FAIL,
        )
    if array.dtype.kind not in "biuf":
        if array.dtype.kind == "V" and _low_precision_number(array.dtype):
            # bfloat16, the float8s and int4: numbers numpy does not count as such. Their values
            # are judged like any other, at the tolerance of their precision (`_tolerance`).
            return array
        return Problem(Kind.NOT_NUMBERS, f"{name} returned {array.dtype} values, not numbers (a {type(part).__name__})")
    if array.dtype.kind == "f" and array.dtype.itemsize > 8:
        # Extended precision (np.longdouble) is judged as float64, the precision asked for; values
        # beyond float64's range become inf there, and are told as such.
        with np.errstate(over="ignore"):
            return array.astype(np.float64)
    return array


def _low_precision_number(dtype: np.dtype[Any]) -> bool:
    import jax.numpy as jnp

    try:
        return bool(jnp.issubdtype(dtype, jnp.floating) or jnp.issubdtype(dtype, jnp.integer))
    except TypeError:
        return False


@dataclass(frozen=True)
class Traced:
    """An answer traced once for all its draws under `vmap`: a program, not yet compiled."""

    jaxpr: Any  # the ClosedJaxpr of jac on one draw (the caller maps it over all of them)
    out_tree: Any  # how its outputs nest, as jac returns them
    inputs: tuple[np.ndarray, ...]  # the stacked non-static arguments
    # The draws (by index) that run op by op on their own, as `check` runs them (`_op_by_op`):
    # entries a subnormal distance apart, in an answer that compares floats.
    op_by_op: tuple[int, ...] = ()


def trace_batched(
    puzzle: Puzzle, path: Path, draws: tuple[Draw, ...], timeout: float = DEFAULT_TIMEOUT
) -> Traced | None:
    """`jac` from `path` traced on all `draws` at once, for a caller that compiles many answers
    as one program (class grading); None whenever anything is unusual.

    Only the clean case is traced: a plain function `jac`, importing and tracing without a word
    of output, an exception or the alarm, tracing the same program twice (no state kept between
    calls), no callbacks. Anything else is left to `run`, which reports it in `check`'s words.
    """
    if precheck(puzzle, path) is not None or not draws:
        return None
    captured = _Capture()
    try:
        with _guarded(), contextlib.redirect_stdout(captured), contextlib.redirect_stderr(captured):
            traced = _trace_batched(puzzle, path, draws, timeout)
    except _Timeout:
        traced = None  # too slow: `run` times it again and says so
    except BaseException as exc:  # noqa: BLE001 - learner code ran here: leave it to `run`
        _learners(exc)
        traced = None
    _numerics.repin()
    return traced if captured.tell() == 0 else None


def _trace_batched(puzzle: Puzzle, path: Path, draws: tuple[Draw, ...], timeout: float) -> Traced | None:
    import jax

    with _time_limit(timeout):
        module = _load(path)
    _numerics.repin()
    jac = module.__dict__.get(puzzle.answer_name)
    if not inspect.isfunction(jac):
        return None
    inspect.signature(jac).bind(*(a.name for a in puzzle.args))  # TypeError: left to `run`
    inputs = tuple(np.stack([d.values[i] for d in draws]) for i, a in enumerate(puzzle.args) if a.static is None)
    first = puzzle.dynamic(draws[0].values)
    with _time_limit(timeout):  # on one draw, as `check` traces it; `vmap` of the program runs all
        # Each trace through a new function object: JAX caches traces by function, and a cached
        # second trace would hide an answer that is right on its first call only.
        target = puzzle.on_dynamic(jac)
        refused = _REFUSED_CONCRETE[0]
        closed, shapes = jax.make_jaxpr(lambda *args: target(*args), return_shape=True)(*first)
        again = jax.make_jaxpr(lambda *args: target(*args))(*first)
        if (
            _REFUSED_CONCRETE[0] != refused
            or len(closed.jaxpr.eqns) > _BATCH_EQUATIONS
            or not traceable(closed.jaxpr, batched=True)
        ):
            return None
        program = (_program(closed.jaxpr), [np.asarray(c) for c in closed.consts])
        if (
            not _same_trace(program, (_program(again.jaxpr), [np.asarray(c) for c in again.consts]))
            or any(np.dtype(s.dtype).kind not in "biuf" for s in jax.tree_util.tree_leaves(shapes))
        ):
            return None
    apart = tuple(k for k, d in enumerate(draws) if d.subnormal_apart)
    op_by_op = apart if apart and _compares_floats(program) else ()
    return Traced(closed, jax.tree_util.tree_structure(shapes), inputs, op_by_op)


_BATCH_EQUATIONS = 4000  # a longer traced answer is compiled on its own by `run`
