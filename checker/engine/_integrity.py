"""Answers that let autodiff or the kit do the work, stopped in the act while they run
(`install_guards`, `armed`, `used`, `message`); the scan of their source before they run is
`_source_scan`'s.

The puzzles ask for Jacobians computed by hand, so an answer may not use JAX's (or TensorFlow's,
or PyTorch's) automatic differentiation, nor import the checker or the reference answers.
`check` and the grader apply the same rule with the same words: a learner never sees a pass
from `check` for an answer the grader refuses.

`install_guards` (the grading worker, for good) and `armed` (`check`, while an answer runs)
refuse at run time what a scan cannot read (`getattr(jax, "jac" + "fwd")`), and, beyond names,
JAX's differentiation machinery itself, whatever route reaches it (see below).
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import importlib
import inspect
import os
import sys
import sysconfig
import types
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, NoReturn

from checker.engine._source_scan import JAX_AUTODIFF, KIT


class Forbidden(BaseException):
    """Raised inside an answer that called autodiff or imported the kit: a BaseException, so that
    `except Exception` in the answer cannot swallow it (the call is recorded anyway)."""



# ---- at run time: in the grading worker, and in `check` while an answer runs ----
#
# Names are only the front door: `jax.jvp` is also `jax._src.api.jvp`, `jax._src.scipy.special.
# jvp`, whatever `gc` finds, or a fresh copy after `importlib.reload`. So the guards also sit
# where every route ends, in JAX's differentiation machinery itself:
#
# - every trace is built by `core.Trace.__init__`: a trace whose class is (or derives from)
#   `JVPTrace`, `LinearizeTrace` or `JetTrace` is refused, whichever module defined it (a reload
#   defines the classes anew, under the same names);
# - the methods of those classes, transposition (`backward_pass`), and every derivative rule in
#   JAX's tables (`primitive_jvps`, `primitive_transposes`, the jet rules) are refused too.
#
# These functions are guarded by swapping their *code* in place (`_swap`), not the names bound to
# them: every reference to them, wherever it was taken (a `from ... import`, a `partial`, a
# closure, `__wrapped__`, `gc`), runs the guard. An audit hook refuses what would get around
# that: searching the heap (`gc.get_objects`, `get_referrers`, `get_referents`), re-running one
# of JAX's or the kit's modules (`reload`, or `exec` of its code), compiling code under a file
# name of JAX, the kit, the standard library or an installed package, and writing the code of a
# guarded function or the attributes of a guarded class.
#
# Refused only while an answer runs: the kit computes its expected Jacobians with the same
# machinery, before (`check`) or in another process (the grader). One exception: JAX transposes
# a linear function inside `lax.custom_linear_solve` (which `jnp.linalg.solve` uses) to build the
# solve's own derivative; that transposition is JAX's forward pass, and is let through when no
# answer code stands between the two. (Transposition only ever applies to linear functions, whose
# Jacobian an answer may read off by calling them on the identity anyway.)
#
# In the grading worker nothing but answers runs once the guards are in: there the traces' methods
# and the derivative rules keep no original at all (`final`: their code raises, whatever its gate
# does), and the gate and the audit hook read private copies of their state, the gate being a
# constant of the swapped code (no name in JAX's modules leads to it), so an answer that rewrites
# this module's names (`_ALWAYS`, `_DEPTH`, `refusing`, `_GATED`), reached through `sys.modules`
# or otherwise, brings nothing back. In `check` the originals are kept for the kit's own oracles;
# an answer that rewrites this module's state is refused when it returns (`armed`), but one that
# puts every name and table back before returning can get past `check`, not the grader.
# Not caught anywhere: JAX's autodiff source copied into an answer under another file name, with
# derivative rules of its own: that is writing an autodiff of one's own, which the rule cannot
# tell from a hand-made Jacobian (and TensorFlow and PyTorch are refused by the scan only); nor a
# numerical Jacobian (finite differences, the complex step), which uses no autodiff at all.

_USED: list[str] = []  # what guarded calls and imports were attempted since the last `used()`
_INSTALLED = False
_ALWAYS = False  # the grading worker: refused for good once installed
_DEPTH = [0]  # `check`: refused while > 0 (`armed`)
_TRUSTED: tuple[str, ...] = ()  # folders whose code may import the kit: the kit, stdlib, site-packages
_JAX_DIR = ""  # JAX's package folder (frames of JAX's own code)

# Recorded names for what was reached (`message` says "reaches ..."), by what was reached.
REACHED = "reaches "
PROBE = "probe "
_TRACES = {
    "JVPTrace": "JAX's forward-mode autodiff (JVPTrace)",
    "LinearizeTrace": "JAX's linearization, the first half of reverse mode (LinearizeTrace)",
    "JetTrace": "JAX's Taylor-mode autodiff (JetTrace)",
}
_TRANSPOSITION = "JAX's transposition, the second half of reverse mode (backward_pass)"
_TABLES = {  # (module, table): what its rules are
    ("jax._src.interpreters.ad", "primitive_jvps"): "JAX's derivative rules (ad.primitive_jvps)",
    ("jax._src.interpreters.ad", "primitive_transposes"): "JAX's transposition rules (ad.primitive_transposes)",
    ("jax._src.interpreters.ad", "fancy_transposes"): "JAX's transposition rules (ad.fancy_transposes)",
    ("jax._src.interpreters.ad", "reducing_transposes"): "JAX's transposition rules (ad.reducing_transposes)",
    ("jax.experimental.jet", "jet_rules"): "JAX's Taylor-mode rules (jet.jet_rules)",
    ("jax._src.interpreters.ad", "primitive_linearizations"): "JAX's linearization rules (ad.primitive_linearizations)",
}
_CUSTOM = "JAX's own derivative rules of its custom_jvp and custom_vjp functions (jax.nn.relu.jvp...)"
_TRANSPOSE_KINDS = frozenset({_TRANSPOSITION, *(v for (_, t), v in _TABLES.items() if "transpose" in t)})

# key -> (the guarded function's original, as a function of its own; what it reaches; the rule
# deciding: "trace" for Trace.__init__, "transpose" for transposition, "always" otherwise)
_GATED: dict[int, tuple[Callable[..., Any] | None, str, str]] = {}
_GATED_IDS: set[int] = set()  # ids of the functions whose code was swapped
_GATED_CLASSES: list[type] = []
_SEEN_RULES: dict[str, int] = {}  # table -> its size when its rules were last guarded
_MODULE_FILES: dict[str, str] = {}  # file -> module, for the modules of JAX and the kit loaded
_MODULES_SEEN = [0]  # how many modules were loaded when `_MODULE_FILES` was last brought up to date
_SOLVE_CODES: frozenset[Any] = frozenset()  # custom_linear_solve's code (see above)


def refusing() -> bool:
    """Whether the guards refuse now: in the worker, always once installed; in `check`, while armed."""
    return _ALWAYS or _DEPTH[0] > 0


@contextlib.contextmanager
def armed() -> Iterator[None]:
    """Refuse autodiff and the kit while the block runs (an answer, in `check`); installs the
    guards the first time."""
    install_guards(always=False)
    _guard_new_rules()
    _guard_custom_rules()
    _stand_in_everywhere()
    _note_modules()
    depth = _DEPTH
    depth[0] += 1
    before = _state()
    bound = list(_bindings())  # a copy: the answer cannot reach this one
    try:
        yield
    finally:
        if not _kept(_state(), before):  # the answer rewrote the guards: put them back, and refuse it
            _restore_state(before)
            _USED.append(f"{PROBE}rewrites the checker's own guards (its module {__name__})")
        rebound = _rebind(bound)
        if rebound:  # the answer put other functions where JAX keeps its guarded ones: back, and refused
            _USED.append(f"{PROBE}replaces JAX's guarded differentiation code ({', '.join(rebound[:3])}"
                         f"{', …' if len(rebound) > 3 else ''}) with functions of its own")
        depth[0] -= 1


# Where JAX's modules, classes and rule tables hold a guarded function or a stand-in: an answer in
# `check` (where the originals' code still exists, in JAX's files) could build fresh functions
# from that code and put them in these places; each is compared after the answer and put back.
# (A class attribute set raises no audit event, and the tables are plain dicts.)
_BINDINGS: list[tuple[Any, Mapping[str, Any]]] = []  # (a module or class, its namespace)
_BINDINGS_SEEN = [-1]  # how many modules were loaded when `_BINDINGS` was last made


def _bindings() -> list[tuple[Any, Any, Any]]:
    """Every `(namespace, key, value)` whose value is guarded (a swapped function, a property
    or rule made of one, a stand-in), in JAX's modules and classes and the rule tables."""
    tables = [getattr(sys.modules.get(m), t, None) for m, t in _TABLES]
    seen = (len(sys.modules), len(_GATED_IDS), *(len(t) if isinstance(t, dict) else -1 for t in tables))
    if _BOUND[0] == seen:  # nothing loaded or guarded since: the same places (put back after every answer)
        return list(_BOUND[1])
    if _BINDINGS_SEEN[0] != len(sys.modules):
        _BINDINGS.clear()
        for name, module in list(sys.modules.items()):
            if name.partition(".")[0] != "jax" or module is None:
                continue
            namespace = vars(module)
            _BINDINGS.append((module, namespace))
            for value in list(namespace.values()):
                if isinstance(value, type) and value.__module__ == name:
                    _BINDINGS.append((value, value.__dict__))  # read-only mapping: set back with setattr
        _BINDINGS_SEEN[0] = len(sys.modules)
    stand_ins = {id(pair[1]) for pair in _STAND_INS.values()}
    found = []
    for owner, held in _BINDINGS:
        for key, value in list(held.items()):
            if _guarded(value, stand_ins):
                found.append((owner, key, value))
    for table in tables:
        if isinstance(table, dict):
            found += [(table, key, value) for key, value in list(table.items())]
    _BOUND[:] = [seen, found]
    return found


_BOUND: list[Any] = [None, []]  # (what `_bindings` was made for, what it found)


def _guarded(value: Any, stand_ins: set[int]) -> bool:
    if isinstance(value, property):
        value = value.fget
    return id(value) in _GATED_IDS or id(value) in stand_ins


def _rebind(bound: list[tuple[Any, Any, Any]]) -> list[str]:
    """Put back every binding of `bound` the answer changed; what they were, by name."""
    changed = []
    for owner, key, value in bound:
        now = owner.get(key, _GONE) if isinstance(owner, dict) else getattr(owner, "__dict__", {}).get(key, _GONE)
        if now is value:
            continue
        if isinstance(owner, dict):
            owner[key] = value
            changed.append(f"a rule of {getattr(key, 'name', key)}")
        else:
            setattr(owner, key, value)
            changed.append(f"{getattr(owner, '__name__', owner)}.{key}")
    return changed


_GONE = object()


# What an answer could rewrite in this module to switch the guards off in `check` (where the
# originals stay, for the kit's oracles). The grading worker does not depend on any of it.
_STATE_NAMES = ("_ALWAYS", "_DEPTH", "_bindings", "_rebind", "_TRUSTED", "_GATED", "_GATED_IDS", "_GATED_CLASSES", "_STAND_INS", "_MODULE_FILES",
                "_SOLVE_CODES", "_JAX_DIR", "_USED", "_GATE_IN_USE", "refusing", "armed", "used", "message", "_stop", "_gate",
                "_audit", "_inside_solve", "_ad_trace", "_trusted", "Forbidden")


def _state() -> tuple[dict[str, Any], dict[str, Any]]:
    """This module's names that decide what is refused, and copies of its containers' contents."""
    names = {n: globals().get(n) for n in _STATE_NAMES}
    contents: dict[str, Any] = {}
    for name, value in names.items():
        if isinstance(value, (dict, set, list)) and name != "_USED":
            contents[name] = value.copy()
    return names, contents


def _kept(now: tuple[dict[str, Any], dict[str, Any]], before: tuple[dict[str, Any], dict[str, Any]]) -> bool:
    """Whether every name is still what it was and every container still holds what it held (the
    tables may have grown: a check nested in this one guards what was imported since)."""
    if any(now[0][n] is not before[0][n] for n in _STATE_NAMES):
        return False
    for name, old in before[1].items():
        new = now[1][name]
        if isinstance(old, dict):
            if any(k not in new or new[k] is not v and new[k] != v for k, v in old.items()):
                return False
        elif isinstance(old, set):
            if not old <= new:
                return False
        elif new[:len(old)] != old:
            return False
    return True


def _restore_state(before: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """The names as they were, and their containers' contents."""
    names, contents = before
    globals().update(names)
    for name, saved in contents.items():
        container = names[name]
        container.clear()
        container.update(saved) if not isinstance(container, list) else container.extend(saved)


def used() -> list[str]:
    """What answers tried since the last call, in order, and forget it: `"jax.jacfwd"` for a
    call, `"import checker.engine._engine"` for an import, `"reaches JAX's ..."` for the machinery."""
    found = list(dict.fromkeys(_USED))
    _USED.clear()
    return found


def message(names: Iterable[str]) -> str:
    """The diagnosis for what `used()` returned: which calls, machinery or imports, and that they
    are not allowed."""
    unique = list(dict.fromkeys(names))
    reached = [n.removeprefix(REACHED) for n in unique if n.startswith(REACHED)]
    probes = [n.removeprefix(PROBE) for n in unique if n.startswith(PROBE)]
    imports = [n.removeprefix("import ") for n in unique if n.startswith("import ")]
    calls = [n for n in unique if not n.startswith(("import ", REACHED, PROBE))]
    parts = []
    if calls:
        parts.append(f"calls {', '.join(calls)}: answers must compute the Jacobian by hand; autodiff is not allowed")
    if reached:
        parts.append(f"reaches {', '.join(reached)}: answers must compute the Jacobian by hand; "
                     f"autodiff is not allowed, whatever name or module it is reached through")
    if probes:
        parts.append(f"{', '.join(probes)}: not allowed in an answer, as a way around the rule that answers compute the "
                     f"Jacobian by hand (no searching the interpreter's memory, re-running JAX's or the kit's modules, "
                     f"or rewriting their code)")
    if imports:
        parts.append(f"imports {', '.join(imports)}: answers may not use the checker's code or the reference answers")
    return "; ".join(parts)


def _stop(name: str) -> NoReturn:
    _USED.append(name)
    raise Forbidden(message([name]))


def install_guards(always: bool = True) -> None:
    """Guard JAX's autodiff, its machinery, and imports of the kit in this process (idempotent).

    `always`: the grading worker, where nothing but answers runs from now on: refuse for good.
    Otherwise (`check`) the guards refuse only inside `armed()`.
    A refused call or import records its name (see `used`) and raises `Forbidden`.
    """
    global _INSTALLED, _TRUSTED, _ALWAYS, _JAX_DIR, _SOLVE_CODES
    if _INSTALLED:
        _ALWAYS = _ALWAYS or always
        return
    import jax
    import jax._src.api as api
    import jax._src.core as core
    import jax._src.interpreters.ad as ad
    import jax._src.lax.control_flow.solves as solves

    jet: Any = None
    try:
        jet = importlib.import_module("jax.experimental.jet")
    except ImportError:  # pragma: no cover - every JAX the kit supports has it (the worker preloads it)
        pass
    for short in JAX_AUTODIFF:
        original = getattr(api, short, None) or getattr(jax, short, None)
        if original is not None:
            _STAND_INS[id(original)] = (original, _refuse(f"jax.{short}", original))
    if jet is not None:
        _STAND_INS[id(jet.jet)] = (jet.jet, _refuse("jax.experimental.jet.jet", jet.jet))
    _stand_in_everywhere()
    _JAX_DIR = str(Path(jax.__file__).resolve().parent) + "/"
    _SOLVE_CODES = frozenset({_unwrapped(solves.custom_linear_solve).__code__})
    if always:
        _GATE_IN_USE[0] = _private_gate()
    _swap(vars(core.Trace)["__init__"], "a trace", "trace")
    for klass in (ad.JVPTrace, ad.LinearizeTrace, *((jet.JetTrace,) if jet is not None else ())):
        _GATED_CLASSES.append(klass)
        for value in list(vars(klass).values()):
            if isinstance(value, types.FunctionType):
                _swap(value, _TRACES[klass.__name__], "always", final=always)
    _GATED_CLASSES.append(core.Trace)
    for name in ("backward_pass", "backward_pass3", "closed_backward_pass", "get_primitive_transpose"):
        function = getattr(ad, name, None)
        if isinstance(function, types.FunctionType):
            _swap(function, _TRANSPOSITION, "transpose")
    _guard_new_rules(final=always)
    _guard_custom_rules(final=always)
    kit = Path(__file__).resolve().parents[1]  # the whole `checker` package
    paths = sysconfig.get_paths()
    _TRUSTED = tuple(str(Path(p).resolve()) + "/" for p in {str(kit), *(paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths)})
    _note_modules()
    builtins.__import__ = _import_guard(builtins.__import__)
    importlib.import_module = _import_guard(importlib.import_module)
    importlib.__import__ = _import_guard(importlib.__import__)
    importlib.reload = _reload_guard(importlib.reload)
    sys.addaudithook(_private_audit() if always else _audit)
    _ALWAYS = always
    _INSTALLED = True


def withheld_sources() -> list[str]:
    """The files holding the originals of what the grading worker's guards replace in memory
    (the forward-mode, linearize and Taylor traces, the derivative and transposition rules): each
    module's source and its cached bytecode. The worker's view empties them, so an answer cannot
    compile the originals back from JAX's own files (red team, round 2); the modules themselves
    were imported before, in the zygote."""
    import importlib.util

    import jax._src.interpreters.ad as ad

    jet = sys.modules.get("jax.experimental.jet")
    functions: list[types.FunctionType] = []
    for klass in (ad.JVPTrace, ad.LinearizeTrace, *((jet.JetTrace,) if jet is not None else ())):
        functions += [v for v in vars(klass).values() if isinstance(v, types.FunctionType)]
    for module_name, table_name in _TABLES:
        table = getattr(sys.modules.get(module_name), table_name, None)
        for value in table.values() if isinstance(table, dict) else ():
            functions += list(_functions_in(value))
    functions += _custom_rules()  # their modules' files too: a rule rebuilt from them is JAX's (red team, round 4)
    found: set[str] = set()
    for filename in {f.__code__.co_filename for f in functions}:
        if filename.startswith("/") and os.path.isfile(filename):
            found.add(os.path.realpath(filename))
            cached = importlib.util.cache_from_source(filename)
            if os.path.isfile(cached):
                found.add(os.path.realpath(cached))
    return sorted(found)


def _stand_in_everywhere() -> None:
    """Put the stand-ins wherever JAX's modules hold the originals (`jax.jvp`, `jax._src.api.jvp`,
    `jax._src.scipy.special.jvp`...), whenever those modules were imported: so that a name says
    the same (`calls jax.jvp`) in `check` as in the grader, whatever either imported first."""
    if len(sys.modules) == _STAND_INS_SEEN[0]:
        return
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] != "jax" or module is None:
            continue
        namespace = vars(module)
        for key, value in list(namespace.items()):
            if id(value) in _STAND_INS and _STAND_INS[id(value)][0] is value:
                namespace[key] = _STAND_INS[id(value)][1]
    _STAND_INS_SEEN[0] = len(sys.modules)


_STAND_INS: dict[int, tuple[Any, Callable[..., Any]]] = {}  # id of an original -> (it, its stand-in)
_STAND_INS_SEEN = [0]  # how many modules were loaded when the stand-ins were last put in place


def _unwrapped(function: Any) -> Any:
    while hasattr(function, "__wrapped__"):
        function = function.__wrapped__
    return function


def _refuse(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    """A stand-in for an autodiff function: records the call and stops the answer while the
    guards refuse; the kit's own calls (its oracles, in `check`) go through."""
    transpose = name == "jax.linear_transpose"

    def refused(*args: Any, **kwargs: Any) -> Any:
        if refusing() and not (transpose and _inside_solve()):
            _stop(name)
        return original(*args, **kwargs)

    refused.__name__ = getattr(original, "__name__", name)
    refused.__qualname__ = getattr(original, "__qualname__", name)
    refused.__doc__ = getattr(original, "__doc__", None)
    return refused


# ---- guarding a function wherever it is referenced: its code is swapped ----

_TEMPLATES: dict[tuple[tuple[str, ...], bool], types.CodeType] = {}
_GUARD_FILE = "<jacpuzzles autodiff guard>"  # the file name of the swapped code
_FLAGS_SKIPPED = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE


def _gate_code(freevars: tuple[str, ...], key: int, final: bool) -> types.CodeType:
    """`def f(*args, **kwargs): return _jacpuzzles_autodiff_gate(key, args, kwargs)`, with the
    free variables `freevars` (a function's code can only be swapped for code with the same).
    `final`: the code ends in a `raise` of its own, whatever the gate does."""
    template = _TEMPLATES.get((freevars, final))
    if template is None:
        # The gate is a constant of the code, not a name looked up in JAX's modules, so that
        # rebinding a name there cannot take it out; the final code raises whatever it returns.
        lines = ["def outer():", *(f"    {v} = None" for v in freevars), "    def gate(*args, **kwargs):"]
        if freevars:
            lines.append(f"        ({', '.join(freevars)},)")
        if final:
            lines += ["        'GATE'('KEY', args, kwargs)", "        raise 'REFUSED'('KEY')"]
        else:
            lines += ["        return 'GATE'('KEY', args, kwargs)"]
        namespace: dict[str, Any] = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # "'str' object is not callable": replaced below
            exec(compile("\n".join(lines + ["    return gate"]), _GUARD_FILE, "exec"), namespace)  # noqa: S102 - our own text
        template = _TEMPLATES[(freevars, final)] = namespace["outer"]().__code__
    constants = {"KEY": key, "GATE": _GATE_IN_USE[0], "REFUSED": _refused}
    return template.replace(co_consts=tuple(constants.get(c, c) if isinstance(c, str) else c for c in template.co_consts))


def _refused(key: int) -> Forbidden:
    """What the final code raises if its gate ever returns (its state rewritten in memory)."""
    return Forbidden(message([REACHED + "JAX's differentiation machinery"]))


def _swap(function: types.FunctionType, what: str, rule: str, final: bool = False) -> None:
    """Make `function` run `_gate` first, whatever references it (skipped when it cannot be).

    `final` (the grading worker, for what nothing there may use: the differentiating traces and
    the derivative rules): the original is not kept anywhere, so nothing an answer finds or
    rewrites in memory brings it back."""
    if id(function) in _GATED_IDS or function.__code__.co_flags & _FLAGS_SKIPPED:
        return
    final = final and rule == "always"
    code = _gate_code(function.__code__.co_freevars, len(_GATED), final)
    if code.co_freevars != function.__code__.co_freevars:
        return
    original = None
    if not final:
        original = types.FunctionType(function.__code__, function.__globals__, function.__name__, function.__defaults__, function.__closure__)
        original.__kwdefaults__ = function.__kwdefaults__
    entry = (original, what, rule)
    _GATED[len(_GATED)] = entry
    private = _GATE_IN_USE[0].__globals__["_GATED"]
    if private is not _GATED:
        private[len(private)] = entry
    function.__code__ = code
    _GATED_IDS.add(id(function))


def _gate(key: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    original, what, rule = _GATED[key]
    if original is None:
        _stop(REACHED + what)
    if refusing():
        if rule == "trace":
            reached = _ad_trace(type(args[0])) if args else None
            if reached is not None:
                _stop(REACHED + reached)
        elif rule != "transpose" or not _inside_solve():
            _stop(REACHED + what)
    return original(*args, **kwargs)


_GATE_IN_USE: list[Callable[..., Any]] = [_gate]  # the gate the swapped code calls (a constant of that code)


def _private_gate() -> Callable[..., Any]:
    """The gate for the grading worker: `_gate` with its own copy of what it reads (as the audit
    hook, `_private_audit`), so that an answer that rewrites this module's names (`refusing`,
    `_ALWAYS`, `_GATED`) changes nothing it decides."""
    private = dict(globals())
    private["refusing"] = lambda: True
    private["_GATED"] = dict(_GATED)
    private["_inside_solve"] = types.FunctionType(_inside_solve.__code__, private, "_inside_solve")
    private["_ad_trace"] = types.FunctionType(_ad_trace.__code__, private, "_ad_trace")
    return types.FunctionType(_gate.__code__, private, "_gate")


def _ad_trace(klass: type) -> str | None:
    """What a trace class is, when it is (or derives from) one of JAX's differentiating traces."""
    for base in klass.__mro__:
        if base.__name__ in _TRACES:
            return _TRACES[base.__name__]
    return None


def _inside_solve() -> bool:
    """Whether JAX's own `custom_linear_solve` is transposing here, with only JAX's own code
    between the two (an answer's callback in between is the answer transposing)."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code in _SOLVE_CODES:
            return True
        if not frame.f_code.co_filename.startswith((_JAX_DIR, __file__, _GUARD_FILE)):
            return False
        frame = frame.f_back  # type: ignore[assignment]
    return False


def _guard_new_rules(final: bool = False) -> None:
    """Guard the rules in JAX's derivative tables (again when a module imported since added some)."""
    for (module_name, table_name), what in _TABLES.items():
        table = getattr(sys.modules.get(module_name), table_name, None)
        if not isinstance(table, dict) or _SEEN_RULES.get(module_name + table_name) == len(table):
            continue
        rule = "transpose" if what in _TRANSPOSE_KINDS else "always"
        for value in list(table.values()):
            for function in _functions_in(value):
                _swap(function, what, rule, final or _ALWAYS)
        _SEEN_RULES[module_name + table_name] = len(table)


_CUSTOM_SEEN = [0]  # how many modules were loaded when their custom rules were last guarded


def _guard_custom_rules(final: bool = False) -> None:
    """Guard the rules of the `custom_jvp` and `custom_vjp` functions in JAX's modules (again when
    modules were imported since): `jax.nn.relu.jvp` is JAX's own derivative of relu, callable by
    hand without any trace (red team, round 3)."""
    if len(sys.modules) == _CUSTOM_SEEN[0]:
        return
    _CUSTOM_SEEN[0] = len(sys.modules)  # first: the imports below come back through the import guard
    for function in _custom_rules():
        _swap(function, _CUSTOM, "always", final or _ALWAYS)
    _CUSTOM_SEEN[0] = len(sys.modules)


def _custom_rules() -> list[types.FunctionType]:
    """The rule functions of the `custom_jvp` and `custom_vjp` functions in the loaded modules
    (JAX's, and libraries built on it), the kit's own aside."""
    from jax._src import custom_derivatives

    kinds = (custom_derivatives.custom_jvp, custom_derivatives.custom_vjp)
    public = {id(f) for pair in _STAND_INS.values() for f in pair}  # the originals and their stand-ins
    found = []
    for name, module in list(sys.modules.items()):  # JAX's, and any library's built on it (optax's log-softmax)
        if module is None or name.partition(".")[0] in KIT:
            continue
        try:
            values = list(vars(module).values())
        except TypeError:  # a module object without a __dict__
            continue
        for value in values:
            if isinstance(value, kinds):
                for rule in (getattr(value, "jvp", None), getattr(value, "fwd", None), getattr(value, "bwd", None)):
                    # The rule itself only: a partial's arguments may be functions used elsewhere
                    # (zeta's rule holds `jax.jvp`), and the public API has its stand-ins.
                    function = rule.func if isinstance(rule, functools.partial) else rule
                    if isinstance(function, types.FunctionType) and id(function) not in public:
                        found.append(function)
    return found


def _functions_in(value: Any) -> Iterator[types.FunctionType]:
    """The Python functions a rule is made of: itself, or a `partial`'s function and arguments."""
    if isinstance(value, types.FunctionType):
        yield value
    elif isinstance(value, functools.partial):
        yield from _functions_in(value.func)
        for arg in value.args:
            for item in arg if isinstance(arg, (list, tuple)) else (arg,):
                if isinstance(item, types.FunctionType):
                    yield item


def _note_modules() -> None:
    """Remember the files of JAX's and the kit's modules loaded now: running one again is a reload."""
    if len(sys.modules) == _MODULES_SEEN[0]:
        return
    _MODULES_SEEN[0] = len(sys.modules)
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] in ("jax", "jaxlib", *KIT):
            file = getattr(module, "__file__", None)
            if isinstance(file, str) and file not in _MODULE_FILES:
                _MODULE_FILES[file] = name


_HEAP = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents"})


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """The audit hook (for good once added): refuses, while the guards refuse, what gets around them."""
    if not refusing():
        return
    if event in _HEAP:
        _stop(f"{PROBE}calls {event}")
    elif event == "exec":
        code = args[0] if args else None
        module = _MODULE_FILES.get(getattr(code, "co_filename", ""))
        if module is not None:
            _stop(_again(module))
    elif event == "compile" and len(args) > 1 and isinstance(args[1], (str, bytes)):
        filename = os.fsdecode(args[1])
        if filename.startswith("/") and _trusted(filename) and not sys._getframe(1).f_code.co_filename.startswith("<frozen importlib"):
            shown = "/".join(Path(filename).parts[-2:])
            _stop(f"{PROBE}compiles code under the file name {shown} of the kit, JAX or an installed library")
    elif event == "object.__setattr__" and args:
        target = args[0]
        own = isinstance(target, types.FunctionType) and target.__code__.co_filename in (__file__, _GUARD_FILE)
        if (id(target) in _GATED_IDS and args[1] == "__code__") or own or any(target is c for c in _GATED_CLASSES):
            _stop(f"{PROBE}rewrites {getattr(target, '__qualname__', target)}.{args[1]}")


def _private_audit() -> Callable[[str, tuple[Any, ...]], None]:
    """The audit hook for the grading worker: `_audit` with its own copy of what it reads, which
    nothing refers to but the interpreter's list of hooks, so that an answer that rewrites this
    module's names (`refusing`, `_MODULE_FILES`...) cannot switch it off."""
    private = dict(globals())
    private["refusing"] = lambda: True
    private["_MODULE_FILES"] = dict(_MODULE_FILES)
    private["_GATED_IDS"] = frozenset(_GATED_IDS)
    private["_GATED_CLASSES"] = tuple(_GATED_CLASSES)
    private["_trusted"] = types.FunctionType(_trusted.__code__, private, "_trusted")
    return types.FunctionType(_audit.__code__, private, "_audit")


def _again(module: str) -> str:
    return f"{PROBE}runs the code of {module} again (a reload)"


def _reload_guard(real: Callable[..., Any]) -> Callable[..., Any]:
    """`importlib.reload`, refusing JAX's and the kit's modules before it even looks for them
    (the audit hook refuses running their code again however it is done; this says the same
    where the worker could not find the module's file to run)."""

    def reload(module: Any) -> Any:
        name = getattr(module, "__name__", None)
        if refusing() and isinstance(name, str) and name.partition(".")[0] in ("jax", "jaxlib", *KIT):
            _stop(_again(name))
        return real(module)

    reload.__doc__ = getattr(real, "__doc__", None)
    return reload


def _trusted(filename: str) -> bool:
    """Whether code from `filename` belongs to the kit, the standard library or an installed package."""
    if filename.startswith("<frozen "):
        return True
    if not filename.startswith("/"):
        return False  # "<string>" (exec) and relative paths: the learner's
    return filename.startswith(_TRUSTED)


def _import_guard(real: Callable[..., Any]) -> Callable[..., Any]:
    """`real` (an import function), refusing `checker` and `solutions` to untrusted callers."""

    def guarded(name: Any, *args: Any, **kwargs: Any) -> Any:
        if refusing() and isinstance(name, str) and name.partition(".")[0] in KIT:
            level = args[3] if len(args) > 3 else kwargs.get("level", 0)
            caller = sys._getframe(1).f_code.co_filename
            if not level and not _trusted(caller):
                _USED.append(f"import {name}")
                raise Forbidden(message([f"import {name}"]))
        module = real(name, *args, **kwargs)
        if refusing() and len(sys.modules) != _CUSTOM_SEEN[0]:  # rules a module imported by an answer brought
            _guard_new_rules(final=_ALWAYS)
            _guard_custom_rules(final=_ALWAYS)
        return module

    guarded.__name__ = getattr(real, "__name__", "__import__")
    guarded.__doc__ = getattr(real, "__doc__", None)
    return guarded
