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
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, NoReturn

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
# this module's names or state (`_STATE.always`, `_STATE.depth`, `refusing`, `_STATE.gated`),
# reached through `sys.modules` or otherwise, brings nothing back. In `check` the originals are
# kept for the kit's own oracles; an answer that rewrites this module's state is refused when it
# returns (`armed`), but one that puts every name and table back before returning can get past
# `check`, not the grader.
# Not caught anywhere: JAX's autodiff source copied into an answer under another file name, with
# derivative rules of its own: that is writing an autodiff of one's own, which the rule cannot
# tell from a hand-made Jacobian (and TensorFlow and PyTorch are refused by the scan only); nor a
# numerical Jacobian (finite differences, the complex step), which uses no autodiff at all.


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

_GUARD_FILE = "<jacpuzzles autodiff guard>"  # the file name of the swapped code
_FLAGS_SKIPPED = (
    inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE
)
_HEAP = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents"})
_GONE = object()  # a binding the answer deleted

# How `armed` treats each field of the guards' state when an answer returns (`_kept`); a field
# says so in its metadata, and a field that says nothing decides what is refused.
_LOG = {"tamper": "log"}  # what was refused: grows while an answer runs; rebinding it is a rewrite
_PROGRESS = {"tamper": "progress"}  # how far the guards got: only the kit moves it forward, never past what is loaded
_CACHE = {"tamper": "cache"}  # remembered work: a nested check may refresh it; any change is dropped (made again)
# the same, dropped apart from the others (`_drop_changed_caches`)
_CUSTOM_CACHE = {"tamper": "cache", "group": "custom"}


@dataclass(eq=False)
class _GuardState:
    """Everything the guards know, in one object (`_STATE`): set up by `install_guards`, raised
    and lowered by `armed`, read by the gate and the audit hook. The grading worker's gate and
    audit hook read copies of their own (`_private_copy`), so rewriting this one changes nothing
    they decide; in `check`, `armed` compares every field (and every name of this module) before
    and after an answer (`_state`, `_kept`)."""

    installed: bool = False
    always: bool = False  # the grading worker: refused for good once installed
    depth: int = 0  # `check`: refused while > 0 (`armed`)
    trusted: tuple[str, ...] = ()  # folders whose code may import the kit: the kit, stdlib, site-packages
    jax_dir: str = ""  # JAX's package folder (frames of JAX's own code)
    solve_codes: frozenset[Any] = frozenset()  # custom_linear_solve's code (see `_inside_solve`)
    gate: Callable[..., Any] | None = None  # the gate the swapped code calls (a constant of that code); None: `_gate`
    # key -> (the guarded function's original, as a function of its own; what it reaches; the rule
    # deciding: "trace" for Trace.__init__, "transpose" for transposition, "always" otherwise)
    gated: dict[int, tuple[Callable[..., Any] | None, str, str]] = field(default_factory=dict)
    gated_ids: set[int] = field(default_factory=set)  # ids of the functions whose code was swapped
    gated_classes: list[type] = field(default_factory=list)  # classes whose attributes may not be set
    stand_ins: dict[int, tuple[Any, Callable[..., Any]]] = field(
        default_factory=dict
    )  # id of an original -> (it, its stand-in)
    module_files: dict[str, str] = field(
        default_factory=dict
    )  # file -> module, for the modules of JAX and the kit loaded
    used: list[str] = field(default_factory=list, metadata=_LOG)  # what was attempted since the last `used()`
    # table -> its size when its rules were last guarded; then how many modules were loaded when
    # their custom rules were guarded, `module_files` brought up to date, the stand-ins put in place
    seen_rules: dict[tuple[str, str], int] = field(default_factory=dict, metadata=_PROGRESS)
    custom_seen: int = field(default=0, metadata=_PROGRESS)
    modules_seen: int = field(default=0, metadata=_PROGRESS)
    stand_ins_seen: int = field(default=0, metadata=_PROGRESS)
    # Where JAX's modules and classes hold guarded functions (`_bindings`): (a module or class, its
    # namespace), and how many modules were loaded when it was made; what `_bindings` was last
    # made for and found; the swapped code's templates (`_gate_code`).
    bindings: list[tuple[Any, Mapping[str, Any]]] = field(default_factory=list, metadata=_CACHE)
    bindings_seen: int = field(default=-1, metadata=_CACHE)
    bound_for: tuple[int, ...] | None = field(default=None, metadata=_CACHE)
    bound: list[tuple[Any, Any, Any]] = field(default_factory=list, metadata=_CACHE)
    templates: dict[tuple[tuple[str, ...], bool], types.CodeType] = field(default_factory=dict, metadata=_CACHE)
    # module name -> (the module, the size of its namespace, its `custom_jvp` and `custom_vjp`
    # objects) when `_custom_rules` last read it whole, once it had finished loading.
    custom_objects: dict[str, tuple[Any, int, tuple[Any, ...]]] = field(default_factory=dict, metadata=_CUSTOM_CACHE)

    def _private_copy(self) -> _GuardState:
        """A copy holding copies of every container, for the grading worker's gate and audit hook."""
        return _GuardState(**{f.name: _copied(getattr(self, f.name)) for f in fields(self)})


def _copied(value: Any) -> Any:
    return value.copy() if isinstance(value, (dict, set, list)) else value


_STATE = _GuardState()



def refusing() -> bool:
    """Whether the guards refuse now: in the worker, always once installed; in `check`, while armed."""
    return _STATE.always or _STATE.depth > 0


@contextlib.contextmanager
def armed() -> Iterator[None]:
    """Refuse autodiff and the kit while the block runs (an answer, in `check`); installs the
    guards the first time."""
    install_guards(always=False)
    _guard_new_rules()
    _guard_custom_rules()
    _stand_in_everywhere()
    _note_modules()
    state = _STATE
    # Taken now: the answer may rebind this module's names, not these.
    kept, restore, drop_changed_caches, rebind = _kept, _restore_state, _drop_changed_caches, _rebind
    bound = list(_bindings())  # a copy: the answer cannot reach this one
    state.depth += 1
    before = _state()
    try:
        yield
    finally:
        if not kept(before):  # the answer rewrote the guards: put them back, and refuse it
            restore(before)
            state.used.append(f"{PROBE}rewrites the checker's own guards (its module {__name__})")
        drop_changed_caches(before)
        rebound = rebind(bound)
        if rebound:  # the answer put other functions where JAX keeps its guarded ones: back, and refused
            state.used.append(f"{PROBE}replaces JAX's guarded differentiation code ({', '.join(rebound[:3])}"
                              f"{', …' if len(rebound) > 3 else ''}) with functions of its own")
        state.depth -= 1


# Where JAX's modules, classes and rule tables hold a guarded function or a stand-in: an answer in
# `check` (where the originals' code still exists, in JAX's files) could build fresh functions
# from that code and put them in these places; each is compared after the answer and put back.
# (A class attribute set raises no audit event, and the tables are plain dicts.)


def _bindings() -> list[tuple[Any, Any, Any]]:
    """Every `(namespace, key, value)` whose value is guarded (a swapped function, a property
    or rule made of one, a stand-in), in JAX's modules and classes and the rule tables."""
    tables = [getattr(sys.modules.get(m), t, None) for m, t in _TABLES]
    seen = (len(sys.modules), len(_STATE.gated_ids), *(len(t) if isinstance(t, dict) else -1 for t in tables))
    if _STATE.bound_for == seen:  # nothing loaded or guarded since: the same places (put back after every answer)
        return list(_STATE.bound)
    if _STATE.bindings_seen != len(sys.modules):
        _STATE.bindings.clear()
        for name, module in list(sys.modules.items()):
            if name.partition(".")[0] != "jax" or module is None:
                continue
            namespace = vars(module)
            _STATE.bindings.append((module, namespace))
            for value in list(namespace.values()):
                if isinstance(value, type) and value.__module__ == name:
                    _STATE.bindings.append((value, value.__dict__))  # read-only mapping: set back with setattr
        _STATE.bindings_seen = len(sys.modules)
    stand_ins = {id(pair[1]) for pair in _STATE.stand_ins.values()}
    found = []
    for owner, held in _STATE.bindings:
        for key, value in list(held.items()):
            if _guarded(value, stand_ins):
                found.append((owner, key, value))
    for table in tables:
        if isinstance(table, dict):
            found += [(table, key, value) for key, value in list(table.items())]
    _STATE.bound_for, _STATE.bound = seen, found
    return found


def _guarded(value: Any, stand_ins: set[int]) -> bool:
    if isinstance(value, property):
        value = value.fget
    return id(value) in _STATE.gated_ids or id(value) in stand_ins


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


# What an answer in `check` could rewrite to switch the guards off (the originals stay there, for
# the kit's oracles; the grading worker depends on none of it): any name of this module (its
# functions, `_STATE` itself), any field of `_STATE`, any container a field holds. Compared
# after every answer, field by field as each field's metadata says (`_LOG`, `_PROGRESS`, `_CACHE`).
_Snapshot = tuple[dict[str, Any], _GuardState, dict[str, Any], dict[str, Any]]  # names, state, fields, contents


def _state() -> _Snapshot:
    """This module's names, the state object, its fields' values, and copies of its containers' contents."""
    values = {f.name: getattr(_STATE, f.name) for f in fields(_GuardState)}
    contents = {n: v.copy() for n, v in values.items() if isinstance(v, (dict, set, list)) and _tamper(n) != "log"}
    return dict(globals()), _STATE, values, contents


def _tamper(name: str) -> str:
    """How a field is compared: "decides" (the default), "log", "progress" or "cache"."""
    return str(_GuardState.__dataclass_fields__[name].metadata.get("tamper", "decides"))


def _kept(before: _Snapshot, names_now: Callable[[], dict[str, Any]] = globals, gone: object = _GONE) -> bool:
    """Whether every name and field is still what it was, every container still holds what it
    held (the tables may have grown: a check nested in this one guards what was imported since),
    and the guards' progress only moved forward, as far as what is loaded. The names first, read
    through defaults bound here: nothing else this module's names lead to is trusted before."""
    names, state, values, contents = before
    now = names_now()
    if any(now.get(n, gone) is not v for n, v in names.items()):
        return False
    for name, old in values.items():
        new, kind = getattr(state, name), _tamper(name)
        if kind == "cache":
            continue  # made again if changed (`_drop_changed_caches`)
        if kind == "progress":
            if not _progressed(old, new, contents.get(name)):
                return False
        elif new is not old and (isinstance(old, (dict, set, list)) or new != old):
            return False
        elif name in contents and not _still_holds(contents[name], new):
            return False
    return True


def _still_holds(old: Any, new: Any) -> bool:
    if isinstance(old, dict):
        return not any(k not in new or new[k] is not v and new[k] != v for k, v in old.items())
    if isinstance(old, set):
        return bool(old <= new)
    return bool(new[:len(old)] == old)


def _progressed(old: Any, new: Any, held: dict[Any, int] | None) -> bool:
    """Whether a progress field (a count of loaded modules, or `held`: table -> its size) moved
    forward only, and no further than what is loaded."""
    if isinstance(old, int):
        return type(new) is int and old <= new <= max(old, len(sys.modules))
    if new is not old or held is None:
        return False
    old = held
    for key, size in new.items():
        table = getattr(sys.modules.get(key[0]), key[1], None) if isinstance(key, tuple) and len(key) == 2 else None
        if (
            not isinstance(table, dict)
            or type(size) is not int
            or not old.get(key, 0) <= size <= max(old.get(key, 0), len(table))
        ):
            return False
    return all(key in new for key in old)


def _restore_state(before: _Snapshot) -> None:
    """The names, the state object and its fields as they were, and their containers' contents."""
    names, state, values, contents = before
    globals().update(names)  # `_STATE` among them
    for name, value in values.items():
        setattr(state, name, value)
    for name, saved in contents.items():
        container = values[name]
        container.clear()
        container.update(saved) if not isinstance(container, list) else container.extend(saved)


def _drop_changed_caches(before: _Snapshot) -> None:
    """Forget what the guards remembered if any of it changed while the answer ran, a group of
    caches at a time (a group holds together: `bound` is what `bound_for` says): it is made
    again when next needed. The custom rules' cache is a group of its own: an answer that
    imports a module changes it, and need not cost the bindings' caches."""
    _, state, values, contents = before
    caches = [f for f in fields(_GuardState) if _tamper(f.name) == "cache"]
    for group in dict.fromkeys(f.metadata.get("group") for f in caches):
        members = [f for f in caches if f.metadata.get("group") == group]
        if all(getattr(state, f.name) is values[f.name]
               and getattr(state, f.name) == contents.get(f.name, values[f.name]) for f in members):
            continue
        for f in members:
            setattr(state, f.name, f.default_factory() if callable(f.default_factory) else f.default)


def used() -> list[str]:
    """What answers tried since the last call, in order, and forget it: `"jax.jacfwd"` for a
    call, `"import checker.engine._engine"` for an import, `"reaches JAX's ..."` for the machinery."""
    found = list(dict.fromkeys(_STATE.used))
    _STATE.used.clear()
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
        parts.append(
            f"{', '.join(probes)}: not allowed in an answer, as a way around the rule that answers compute the "
            f"Jacobian by hand (no searching the interpreter's memory, re-running JAX's or the kit's modules, "
            f"or rewriting their code)"
        )
    if imports:
        parts.append(f"imports {', '.join(imports)}: answers may not use the checker's code or the reference answers")
    return "; ".join(parts)


def _stop(name: str) -> NoReturn:
    _STATE.used.append(name)
    raise Forbidden(message([name]))


def install_guards(always: bool = True) -> None:
    """Guard JAX's autodiff, its machinery, and imports of the kit in this process (idempotent).

    `always`: the grading worker, where nothing but answers runs from now on: refuse for good.
    Otherwise (`check`) the guards refuse only inside `armed()`.
    A refused call or import records its name (see `used`) and raises `Forbidden`.
    """
    if _STATE.installed:
        _STATE.always = _STATE.always or always
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
            _STATE.stand_ins[id(original)] = (original, _refuse(f"jax.{short}", original))
    if jet is not None:
        _STATE.stand_ins[id(jet.jet)] = (jet.jet, _refuse("jax.experimental.jet.jet", jet.jet))
    _stand_in_everywhere()
    _STATE.jax_dir = str(Path(jax.__file__).resolve().parent) + "/"
    _STATE.solve_codes = frozenset({_unwrapped(solves.custom_linear_solve).__code__})
    if always:
        _STATE.gate = _private_gate()
    _swap(vars(core.Trace)["__init__"], "a trace", "trace")
    for klass in (ad.JVPTrace, ad.LinearizeTrace, *((jet.JetTrace,) if jet is not None else ())):
        _STATE.gated_classes.append(klass)
        for value in list(vars(klass).values()):
            if isinstance(value, types.FunctionType):
                _swap(value, _TRACES[klass.__name__], "always", final=always)
    _STATE.gated_classes.append(core.Trace)
    for name in ("backward_pass", "backward_pass3", "closed_backward_pass", "get_primitive_transpose"):
        function = getattr(ad, name, None)
        if isinstance(function, types.FunctionType):
            _swap(function, _TRANSPOSITION, "transpose")
    _guard_new_rules(final=always)
    _guard_custom_rules(final=always)
    kit = Path(__file__).resolve().parents[1]  # the whole `checker` package
    paths = sysconfig.get_paths()
    _STATE.trusted = tuple(
        str(Path(p).resolve()) + "/"
        for p in {str(kit), *(paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths)}
    )
    _note_modules()
    builtins.__import__ = _import_guard(builtins.__import__)
    importlib.import_module = _import_guard(importlib.import_module)
    importlib.__import__ = _import_guard(importlib.__import__)
    importlib.reload = _reload_guard(importlib.reload)
    sys.addaudithook(_private_audit() if always else _audit)
    _STATE.always = always
    _STATE.installed = True


def withheld_sources() -> list[str]:
    """The files holding the originals of what the grading worker's guards replace in memory
    (the forward-mode, linearize and Taylor traces, the derivative and transposition rules): each
    module's source and its cached bytecode. The worker's view empties them, so an answer cannot
    compile the originals back from JAX's own files and swap them in for the guarded ones; the
    modules themselves are imported beforehand, in the zygote."""
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
    # The custom rules' modules too: a rule compiled afresh from those files would be JAX's own.
    functions += _custom_rules()
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
    if len(sys.modules) == _STATE.stand_ins_seen:
        return
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] != "jax" or module is None:
            continue
        namespace = vars(module)
        for key, value in list(namespace.items()):
            if id(value) in _STATE.stand_ins and _STATE.stand_ins[id(value)][0] is value:
                namespace[key] = _STATE.stand_ins[id(value)][1]
    _STATE.stand_ins_seen = len(sys.modules)


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

def _gate_code(freevars: tuple[str, ...], key: int, final: bool) -> types.CodeType:
    """`def f(*args, **kwargs): return _jacpuzzles_autodiff_gate(key, args, kwargs)`, with the
    free variables `freevars` (a function's code can only be swapped for code with the same).
    `final`: the code ends in a `raise` of its own, whatever the gate does."""
    template = _STATE.templates.get((freevars, final))
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
            # exec of the kit's own text: the lines above, from constants and free-variable names.
            exec(compile("\n".join(lines + ["    return gate"]), _GUARD_FILE, "exec"), namespace)
        template = _STATE.templates[(freevars, final)] = namespace["outer"]().__code__
    constants = {"KEY": key, "GATE": _gate_in_use(), "REFUSED": _refused}
    return template.replace(
        co_consts=tuple(constants.get(c, c) if isinstance(c, str) else c for c in template.co_consts)
    )


def _refused(key: int) -> Forbidden:
    """What the final code raises if its gate ever returns (its state rewritten in memory)."""
    return Forbidden(message([REACHED + "JAX's differentiation machinery"]))


def _swap(function: types.FunctionType, what: str, rule: str, final: bool = False) -> None:
    """Make `function` run `_gate` first, whatever references it (skipped when it cannot be).

    `final` (the grading worker, for what nothing there may use: the differentiating traces and
    the derivative rules): the original is not kept anywhere, so nothing an answer finds or
    rewrites in memory brings it back."""
    if id(function) in _STATE.gated_ids or function.__code__.co_flags & _FLAGS_SKIPPED:
        return
    final = final and rule == "always"
    code = _gate_code(function.__code__.co_freevars, len(_STATE.gated), final)
    if code.co_freevars != function.__code__.co_freevars:
        return
    original = None
    if not final:
        original = types.FunctionType(
            function.__code__, function.__globals__, function.__name__, function.__defaults__, function.__closure__
        )
        original.__kwdefaults__ = function.__kwdefaults__
    entry = (original, what, rule)
    _STATE.gated[len(_STATE.gated)] = entry
    private = _gate_in_use().__globals__["_STATE"].gated
    if private is not _STATE.gated:
        private[len(private)] = entry
    function.__code__ = code
    _STATE.gated_ids.add(id(function))


def _gate(key: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    original, what, rule = _STATE.gated[key]
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


def _gate_in_use() -> Callable[..., Any]:
    """The gate the swapped code calls: the grading worker's private one, or `_gate`."""
    return _STATE.gate if _STATE.gate is not None else _gate


def _private_gate() -> Callable[..., Any]:
    """The gate for the grading worker: `_gate` with its own copy of what it reads (as the audit
    hook, `_private_audit`), so that an answer that rewrites this module's names (`refusing`,
    `_STATE.always`, `_STATE.gated`) changes nothing it decides."""
    private = dict(globals())
    private["refusing"] = lambda: True
    private["_STATE"] = _STATE._private_copy()
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
        if frame.f_code in _STATE.solve_codes:
            return True
        if not frame.f_code.co_filename.startswith((_STATE.jax_dir, __file__, _GUARD_FILE)):
            return False
        frame = frame.f_back  # type: ignore[assignment]
    return False


def _guard_new_rules(final: bool = False) -> None:
    """Guard the rules in JAX's derivative tables (again when a module imported since added some)."""
    for (module_name, table_name), what in _TABLES.items():
        table = getattr(sys.modules.get(module_name), table_name, None)
        if not isinstance(table, dict) or _STATE.seen_rules.get((module_name, table_name)) == len(table):
            continue
        rule = "transpose" if what in _TRANSPOSE_KINDS else "always"
        for value in list(table.values()):
            for function in _functions_in(value):
                _swap(function, what, rule, final or _STATE.always)
        _STATE.seen_rules[module_name, table_name] = len(table)


def _guard_custom_rules(final: bool = False) -> None:
    """Guard the rules of the `custom_jvp` and `custom_vjp` functions in JAX's modules (again when
    modules were imported since): `jax.nn.relu.jvp` is JAX's own derivative of relu, callable by
    hand without any trace, so it is guarded like the derivative tables."""
    if len(sys.modules) == _STATE.custom_seen:
        return
    _STATE.custom_seen = len(sys.modules)  # first: the imports below come back through the import guard
    for function in _custom_rules():
        _swap(function, _CUSTOM, "always", final or _STATE.always)
    _STATE.custom_seen = len(sys.modules)


def _custom_rules() -> list[types.FunctionType]:
    """The rule functions of the `custom_jvp` and `custom_vjp` functions in the loaded modules
    (JAX's, and libraries built on it), the kit's own aside."""
    from jax._src import custom_derivatives

    kinds = (custom_derivatives.custom_jvp, custom_derivatives.custom_vjp)
    public = {id(f) for pair in _STATE.stand_ins.values() for f in pair}  # the originals and their stand-ins
    known = _STATE.custom_objects
    found = []
    for name, module in list(sys.modules.items()):  # JAX's, and any library's built on it (optax's log-softmax)
        if module is None or name.partition(".")[0] in KIT:
            continue
        try:
            namespace = vars(module)
        except TypeError:  # a module object without a __dict__
            continue
        # Reading every name of every module again on each import cost 0.5 s of a one-puzzle
        # check: a module that finished loading and holds as many names as last time is not
        # read again, but its custom functions' rules are (a rule can be defined later).
        seen = known.get(name)
        if seen is not None and seen[0] is module and seen[1] == len(namespace):
            customs: tuple[Any, ...] = seen[2]
        else:
            customs = tuple(value for value in list(namespace.values()) if isinstance(value, kinds))
            if not getattr(getattr(module, "__spec__", None), "_initializing", False):
                known[name] = (module, len(namespace), customs)
        for value in customs:
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
    if len(sys.modules) == _STATE.modules_seen:
        return
    _STATE.modules_seen = len(sys.modules)
    for name, module in list(sys.modules.items()):
        if name.partition(".")[0] in ("jax", "jaxlib", *KIT):
            file = getattr(module, "__file__", None)
            if isinstance(file, str) and file not in _STATE.module_files:
                _STATE.module_files[file] = name


def _audit(event: str, args: tuple[Any, ...]) -> None:
    """The audit hook (for good once added): refuses, while the guards refuse, what gets around them."""
    if not refusing():
        return
    if event in _HEAP:
        _stop(f"{PROBE}calls {event}")
    elif event == "exec":
        code = args[0] if args else None
        module = _STATE.module_files.get(getattr(code, "co_filename", ""))
        if module is not None:
            _stop(_again(module))
    elif event == "compile" and len(args) > 1 and isinstance(args[1], (str, bytes)):
        filename = os.fsdecode(args[1])
        if (
            filename.startswith("/")
            and _trusted(filename)
            and not sys._getframe(1).f_code.co_filename.startswith("<frozen importlib")
        ):
            shown = "/".join(Path(filename).parts[-2:])
            _stop(f"{PROBE}compiles code under the file name {shown} of the kit, JAX or an installed library")
    elif event == "object.__setattr__" and args:
        target = args[0]
        own = isinstance(target, types.FunctionType) and target.__code__.co_filename in (__file__, _GUARD_FILE)
        if (
            (id(target) in _STATE.gated_ids and args[1] == "__code__")
            or own
            or any(target is c for c in _STATE.gated_classes)
        ):
            _stop(f"{PROBE}rewrites {getattr(target, '__qualname__', target)}.{args[1]}")


def _private_audit() -> Callable[[str, tuple[Any, ...]], None]:
    """The audit hook for the grading worker: `_audit` with its own copy of what it reads, which
    nothing refers to but the interpreter's list of hooks, so that an answer that rewrites this
    module's names (`refusing`, `_STATE.module_files`...) cannot switch it off."""
    private = dict(globals())
    private["refusing"] = lambda: True
    private["_STATE"] = _STATE._private_copy()
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
    return filename.startswith(_STATE.trusted)


def _after_failed_import() -> None:
    """A failed import takes its modules back out of `sys.modules`, after the guards may have
    counted them: the counts come back down to what is loaded (a count that differs from what is
    loaded only makes the guards look again, so this never switches them off)."""
    loaded = len(sys.modules)
    for name in ("custom_seen", "modules_seen", "stand_ins_seen"):
        if getattr(_STATE, name) > loaded:
            setattr(_STATE, name, loaded)


def _import_guard(real: Callable[..., Any]) -> Callable[..., Any]:
    """`real` (an import function), refusing `checker` and `solutions` to untrusted callers."""

    def guarded(name: Any, *args: Any, **kwargs: Any) -> Any:
        if refusing() and isinstance(name, str) and name.partition(".")[0] in KIT:
            level = args[3] if len(args) > 3 else kwargs.get("level", 0)
            caller = sys._getframe(1).f_code.co_filename
            if not level and not _trusted(caller):
                _STATE.used.append(f"import {name}")
                raise Forbidden(message([f"import {name}"]))
        try:
            module = real(name, *args, **kwargs)
        except BaseException:
            _after_failed_import()
            raise
        if refusing() and len(sys.modules) != _STATE.custom_seen:  # rules a module imported by an answer brought
            _guard_new_rules(final=_STATE.always)
            _guard_custom_rules(final=_STATE.always)
        return module

    guarded.__name__ = getattr(real, "__name__", "__import__")
    guarded.__doc__ = getattr(real, "__doc__", None)
    return guarded
