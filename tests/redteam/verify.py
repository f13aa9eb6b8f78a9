#!/usr/bin/env python3
"""Verify the red-team answers under tests/redteam/<puzzle>/<slug>.py, independently of the checker.

    python3 tests/redteam/verify.py                # every file: fail files at their WITNESS, pass files at 2000 points
    python3 tests/redteam/verify.py relu sort      # only files whose puzzle or path contains one of these words
    python3 tests/redteam/verify.py --checker      # also run checker.check_file on seeds 0..4 and tabulate
    python3 tests/redteam/verify.py --points 500   # fewer random points for the `pass` files

Everything runs under `jax.enable_x64(True)`: float arguments are float64 arrays, integer ones int32, static
ones their catalog value. The truth is `jax.jacrev` of the catalog's f (layout as jacfwd: one block per floating
argument, one tuple per output), or `jax.vjp` of the catalog's f with `g` for backward-pass puzzles.

* `# expect: fail` files must be provably wrong at WITNESS: a block of the wrong shape, a NaN/inf, or an entry
  with |answer - truth| > 1e-3 |truth| + 1e-12 s + 1e-15 (s: largest |truth| in that block). The WITNESS must lie in
  each argument's domain or a region the catalog declares for it (`magnitudes`, `offsets`) (simplex: positive entries summing to 1, or one-hot; integers in range), keep relu's
  entries off 0 and sort's entries apart, and satisfy the puzzle's guard. A float64 finite-difference check of the
  truth is printed as evidence that f is differentiable there (indexing statements define the value at integer /
  half-integer indices, where f jumps; those are marked "defined").
* `# expect: pass` files must be right (|answer - truth| <= 1e-5 |truth| + 1e-6 s + 1e-12) at N random points drawn
  here (uniform in the domain; simplex via Dirichlet(1); for indexing arguments with integer / half-integer edges,
  a quarter of the points put every index on one).

Exit status 1 if a fail file is right at its witness (or its witness is invalid), or a pass file is wrong anywhere.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import pathlib
import sys
import traceback

import numpy as onp

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from checker import puzzles  # noqa: E402

PUZZLES = {p.name: p for p in puzzles()}


# ---------------------------------------------------------------- loading


def header(path: pathlib.Path) -> tuple[str, str]:
    lines = path.read_text().splitlines()
    expect = lines[0].removeprefix("# expect:").strip()
    mistake = lines[1].removeprefix("# mistake:").strip()
    assert lines[0].startswith("# expect:") and expect in ("pass", "fail"), f"{path}: bad expect line"
    assert lines[1].startswith("# mistake:"), f"{path}: bad mistake line"
    return expect, mistake


def load(path: pathlib.Path):
    spec = importlib.util.spec_from_file_location(f"redteam_{path.parent.name}_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def files(filters: list[str]) -> list[pathlib.Path]:
    found = sorted(p for p in HERE.glob("*/*.py") if not p.name.startswith("_"))
    if filters:
        found = [p for p in found if any(w in str(p.relative_to(HERE)) for w in filters)]
    return found


# ---------------------------------------------------------------- arguments and truth


def make_args(p, values: dict) -> tuple:
    out = []
    for a in p.args:
        if a.static is not None:
            out.append(a.static)
        elif a.dtype.startswith("int"):
            out.append(jnp.asarray(values[a.name], dtype=jnp.int32))
        else:
            out.append(jnp.asarray(values[a.name], dtype=jnp.float64))
    return tuple(out)


def truth_fn(p):
    """A jitted function of the dynamic arguments (g included) returning the list of expected blocks."""
    if p.is_vjp:
        nums = [i for i, a in enumerate(p.f_args) if a.differentiable]

        def vjp_truth(*dyn):
            *f_args, g = dyn

            def of_floats(*floats):
                full = list(f_args)
                for i, v in zip(nums, floats):
                    full[i] = v
                return p.f(*full)

            _, pull = jax.vjp(of_floats, *[f_args[i] for i in nums])
            return list(pull(g))

        return jax.jit(vjp_truth)
    jac = jax.jacrev(p.on_dynamic(p.f), argnums=p.dynamic_argnums())
    return jax.jit(lambda *dyn: jax.tree_util.tree_leaves(jac(*dyn)))


def as_block(x) -> onp.ndarray:
    try:
        return onp.asarray(x).astype(onp.float64)
    except Exception:  # noqa: BLE001 - an answer's block may be anything: the plain conversion reports it
        return onp.asarray(x, dtype=onp.float64)


def answer_blocks(p, ans) -> list[onp.ndarray]:
    """The answer's blocks in the truth's order (jacfwd layout); raises ValueError on a structural mismatch."""
    shapes = p.jac_shapes()
    n_wrt = len(p.wrt)
    n_out = 1 if p.is_vjp else len(p.outs)

    def per_output(x, k0):
        if n_wrt == 1:
            if isinstance(x, (tuple, list)) and len(x) == 1 and as_block(x).shape != shapes[k0]:
                x = x[0]
            return [as_block(x)]
        if not isinstance(x, (tuple, list)) or len(x) != n_wrt:
            raise ValueError(f"expected {n_wrt} blocks, got {type(x).__name__}")
        return [as_block(b) for b in x]

    if n_out == 1:
        return per_output(ans, 0)
    if not isinstance(ans, (tuple, list)) or len(ans) != n_out:
        raise ValueError(f"expected {n_out} outputs")
    out = []
    for k, x in enumerate(ans):
        out += per_output(x, k * n_wrt)
    return out


def run_answer(p, fn, args, jit_cache: dict):
    """Call the answer (jitted when it traces, else plainly), static arguments passed as ints."""
    dyn = p.dynamic(args)
    call = p.on_dynamic(fn)
    mode = jit_cache.get("mode")
    if mode != "plain":
        try:
            jitted = jit_cache.setdefault("jitted", jax.jit(call))
            out = jitted(*dyn)
            jit_cache["mode"] = "jit"
            return out
        except Exception:  # noqa: BLE001 - whatever jit cannot run is run plainly
            jit_cache["mode"] = "plain"
    return call(*dyn)


def compare(expected: list, got: list, rtol: float, atol_scale: float, floor: float):
    """(ok, worst_entry_relative, worst_block_relative, note)."""
    if len(expected) != len(got):
        return False, math.inf, math.inf, f"{len(got)} blocks, expected {len(expected)}"
    ok, worst_e, worst_b, note = True, 0.0, 0.0, ""
    for k, (t, a) in enumerate(zip(expected, got)):
        t = onp.asarray(t, dtype=onp.float64)
        if a.shape != t.shape:
            return False, math.inf, math.inf, f"block {k}: shape {a.shape}, expected {t.shape}"
        if not onp.all(onp.isfinite(a)):
            return False, math.inf, math.inf, f"block {k}: NaN/inf"
        s = float(onp.max(onp.abs(t))) if t.size else 0.0
        err = onp.abs(a - t)
        bad = err > rtol * onp.abs(t) + atol_scale * s + floor
        if bad.any():
            ok = False
            if not note:
                i = tuple(int(v) for v in onp.argwhere(bad)[0])
                note = f"block {k}{list(i)}: {a[i]:.6g} vs {t[i]:.6g}"
        rel_e = onp.where(t == 0, math.inf, err / onp.where(t == 0, 1.0, onp.abs(t)))
        worst_e = max(worst_e, float(onp.max(onp.where(err > floor, rel_e, 0.0))) if t.size else 0.0)
        worst_b = max(worst_b, float(onp.max(err)) / s if s > 0 else (math.inf if float(onp.max(err)) > floor else 0.0))
    return ok, worst_e, worst_b, note


# ---------------------------------------------------------------- witness validity


def region_scale(a, v: onp.ndarray) -> float | None:
    """1.0 for entries inside the argument's domain; m for entries inside a region the catalog declares
    for it and the checker draws (`magnitudes`: m times the domain; `offsets`: a common offset of m to 10 m,
    either sign, every entry within 1e-3 of it); None for neither."""
    inside = [m for m in (1.0, *a.magnitudes) if m * a.low <= v.min() and v.max() <= m * a.high]
    if inside:
        return min(inside)
    centre = float(onp.mean(v))
    for m in a.offsets:
        if m <= abs(centre) <= 10 * m and onp.max(onp.abs(v - centre)) <= 1e-3:
            return 1.0  # the answer's mistake shows at O(1) entries of the Jacobian: no rescaled floor
    return None


def witness_problems(p, values: dict, args: tuple) -> list[str]:
    problems = []
    for a in p.args:
        if a.static is not None:
            if a.name in values:
                problems.append(f"{a.name} is static and must not be in WITNESS")
            continue
        if a.name not in values:
            problems.append(f"{a.name} missing")
            continue
        v = onp.asarray(values[a.name], dtype=onp.float64)
        if v.shape != a.shape:
            problems.append(f"{a.name}: shape {v.shape}, expected {a.shape}")
            continue
        if a.dtype.startswith("int"):
            if not onp.all(v == onp.round(v)) or v.min() < a.low or v.max() > a.high:
                problems.append(f"{a.name}: not integers in [{a.low:g}, {a.high:g}]")
        elif a.sampler == "simplex":
            rows = v.reshape(-1, v.shape[-1])
            for r in rows:
                onehot = onp.sum(r == 1.0) == 1 and onp.sum(r == 0.0) == r.size - 1
                if not (onehot or (onp.all(r > 0) and abs(r.sum() - 1) < 1e-9)):
                    problems.append(f"{a.name}: {r} is not a probability vector")
        else:
            if region_scale(a, v) is None:
                problems.append(f"{a.name}: outside [{a.low:g}, {a.high:g}] and the regions the catalog declares for it")
            if "zero" in a.avoid and onp.any(v == 0):
                problems.append(f"{a.name}: an entry is 0 (a kink)")
            if "ties" in a.avoid and len(onp.unique(v)) != v.size:
                problems.append(f"{a.name}: tied entries (a kink)")
    if p.guard == "unique_max":
        arr, x, y = (onp.asarray(values[n], dtype=onp.float64) for n in ("arr", "x_index", "y_index"))
        masked = (onp.outer(x, y)[:, :, None] * arr).reshape(9, -1)
        for c in range(masked.shape[1]):
            top = onp.sort(masked[:, c])[::-1]
            if top[0] - top[1] < 1e-3:
                problems.append(f"guard unique_max: channel {c} winner {top[0]:.6g} within 1e-3 of {top[1]:.6g}")
    if p.guard == "asymmetric":
        v, k, g = (onp.asarray(values[n], dtype=onp.float64) for n in ("v", "k", "g"))
        for b in range(v.shape[0]):
            ks = onp.sort(k[b])[::-1]
            if ks[0] - ks[1] < 1e-3:
                problems.append(f"guard asymmetric: row {b} largest k not unique")
            r = v[b, onp.argmax(k[b])]
            d = onp.sort(onp.abs(v[b] - (r - g[b])))
            d2 = onp.sort((v[b] - (r - g[b])) ** 2)
            if d[1] - d[0] < 1e-3 or d2[1] - d2[0] < 1e-3:
                problems.append(f"guard asymmetric: row {b} nearest entry not unique (gaps {d[1]-d[0]:.3g}, {d2[1]-d2[0]:.3g})")
    return problems


def fd_evidence(p, args: tuple, expected: list) -> str:
    """Central finite differences of f (float64) along a random direction against the truth."""
    if p.is_vjp:
        return "n/a (backward pass)"
    rng = onp.random.default_rng(1)
    dyn = list(p.dynamic(args))
    fn = p.on_dynamic(p.f)
    nums = p.dynamic_argnums()
    nums = (nums,) if isinstance(nums, int) else nums
    dirs = {i: rng.standard_normal(onp.shape(dyn[i])) for i in nums}
    # fine steps resolve witnesses very close to a kink; their rounding noise needs a looser bound
    worst = min(_fd_worst(p, fn, dyn, nums, dirs, expected, h) for h in (1e-5, 1e-7, 1e-9, 1e-11))
    if worst < 1e-4:
        return "fd agrees"
    fine = min(_fd_worst(p, fn, dyn, nums, dirs, expected, h) for h in (1e-13, 1e-14))
    if fine < 3e-2:
        return f"fd agrees (h <= 1e-13, {fine:.1g})"
    defined = any(
        a.edges and ("integer" in a.edges or "half-integer" in a.edges)
        and onp.any(onp.asarray(v, dtype=float) * 2 == onp.round(onp.asarray(v, dtype=float) * 2))
        for a, v in zip(p.args, args) if a.static is None and not a.dtype.startswith("int")
    )
    # Within a few ulps of an integer or half-integer index (off it), f is as differentiable as
    # anywhere between lattice points, but even the finest step crosses the jump.
    beside = any(
        a.edges and ("integer" in a.edges or "half-integer" in a.edges)
        and onp.any(_ulps_off_lattice(onp.asarray(v, dtype=float)))
        for a, v in zip(p.args, args) if a.static is None and not a.dtype.startswith("int")
    )
    if defined:
        return "defined (statement's value at an integer/half-integer index; fd differs)"
    if beside:
        return "beside the lattice (an index a few ulps off an integer or half-integer; fd steps cross the jump)"
    return f"FD DIFFERS ({worst:.2g}): f may not be differentiable here"


def _ulps_off_lattice(v):
    # Entries 1 to 64 ulps (and at 0, up to 1e-16) from the nearest multiple of 0.5, not on it.
    off = onp.abs(v * 2 - onp.round(v * 2)) / 2
    return (off > 0) & (off <= onp.maximum(64 * onp.spacing(onp.abs(v)), 1e-16))


def _fd_worst(p, fn, dyn, nums, dirs, expected, h):
    def at(sign):
        moved = list(dyn)
        for i in nums:
            moved[i] = dyn[i] + sign * h * dirs[i]
        return jax.tree_util.tree_leaves(fn(*moved))

    fd = [(onp.asarray(a) - onp.asarray(b)) / (2 * h) for a, b in zip(at(1), at(-1))]
    # J . d per output, from the expected blocks (output-major, one block per floating argument)
    k, worst = 0, 0.0
    for o, out in enumerate(p.outs):
        jd = onp.zeros(out)
        for i in nums:
            block = onp.asarray(expected[k])
            jd = jd + onp.tensordot(block, dirs[i], axes=dirs[i].ndim)
            k += 1
        scale = max(float(onp.max(onp.abs(jd))) if jd.size else 0.0, 1e-12)
        worst = max(worst, float(onp.max(onp.abs(jd - fd[o]))) / scale if jd.size else 0.0)
    return worst


# ---------------------------------------------------------------- random points for pass files


def random_values(p, rng, n: int) -> list[dict]:
    points = []
    for k in range(n):
        values = {}
        snap = k % 4 == 3  # every fourth point: indices on integers / half-integers
        for a in p.args:
            if a.static is not None:
                continue
            if a.dtype.startswith("int"):
                values[a.name] = rng.integers(int(a.low), int(a.high) + 1, size=a.shape)
            elif a.sampler == "simplex":
                values[a.name] = rng.dirichlet(onp.ones(a.shape[-1]), size=a.shape[:-1]) if len(a.shape) > 1 \
                    else rng.dirichlet(onp.ones(a.shape[0]))
            else:
                v = rng.uniform(a.low, a.high, size=a.shape)
                if snap and a.edges and ("integer" in a.edges or "half-integer" in a.edges):
                    v = onp.round(v * 2) / 2
                values[a.name] = v
        points.append(values)
    return points


# ---------------------------------------------------------------- main


def verify(paths: list[pathlib.Path], n_points: int) -> tuple[list[tuple], bool]:
    rows, all_ok = [], True
    truths = {}
    with jax.enable_x64(True):
        for path in paths:
            name = path.parent.name
            rel = str(path.relative_to(HERE))
            p = PUZZLES.get(name)
            expect, mistake = header(path)
            try:
                module = load(path)
                fn = getattr(module, p.answer_name)
            except Exception as exc:  # noqa: BLE001 - an answer's module may raise anything
                rows.append((rel, expect, "LOAD ERROR", repr(exc)))
                all_ok = False
                continue
            truth = truths.setdefault(name, truth_fn(p))
            if expect == "fail":
                values = getattr(module, "WITNESS", None)
                if not isinstance(values, dict):
                    rows.append((rel, expect, "NO WITNESS", ""))
                    all_ok = False
                    continue
                args = make_args(p, values)
                problems = witness_problems(p, values, args)
                expected = [onp.asarray(b) for b in truth(*p.dynamic(args))]
                try:
                    got = answer_blocks(p, run_answer(p, fn, args, {"mode": "plain"}))
                    # The absolute floor is for O(1) inputs; in a region declared at m times the domain
                    # (strided_conv's x and w at 1e-40, below float32's range) it shrinks with m.
                    scales = [region_scale(a, onp.asarray(values[a.name], onp.float64)) for a in p.args
                              if a.static is None and not a.dtype.startswith("int") and a.sampler != "simplex" and a.name in values]
                    floor = 1e-15 * min([sc for sc in scales if sc is not None] + [1.0])
                    ok, rel_e, rel_b, note = compare(expected, got, 1e-3, 1e-12, floor)
                except Exception as exc:  # noqa: BLE001
                    ok, rel_e, rel_b, note = False, math.inf, math.inf, f"answer raised {exc!r}"
                evidence = fd_evidence(p, args, expected)
                wrong = not ok
                good = wrong and not problems and not evidence.startswith("FD DIFFERS")
                all_ok &= good
                verdict = "wrong at witness" if wrong else "RIGHT AT WITNESS (bad fail file)"
                detail = f"entry-rel {rel_e:.3g}, block-rel {rel_b:.3g}; {note}; {evidence}"
                if problems:
                    verdict = "INVALID WITNESS"
                    detail = "; ".join(problems) + " | " + detail
                rows.append((rel, expect, verdict, detail))
            else:
                rng = onp.random.default_rng(12345)
                cache: dict = {}
                bad, worst = None, 0.0
                for values in random_values(p, rng, n_points):
                    args = make_args(p, values)
                    expected = [onp.asarray(b) for b in truth(*p.dynamic(args))]
                    try:
                        got = answer_blocks(p, run_answer(p, fn, args, cache))
                        ok, rel_e, rel_b, note = compare(expected, got, 1e-5, 1e-6, 1e-12)
                    except Exception as exc:  # noqa: BLE001 - the answer's error is its verdict here
                        ok, rel_b, note = False, math.inf, f"answer raised {exc!r}"
                    worst = max(worst, rel_b)
                    if not ok:
                        bad = (values, note)
                        break
                all_ok &= bad is None
                if bad is None:
                    rows.append((rel, expect, f"right at {n_points} points", f"worst block-rel {worst:.2g}"))
                else:
                    pretty = {k: onp.asarray(v).tolist() for k, v in bad[0].items()}
                    rows.append((rel, expect, "WRONG (bad pass file)", f"{bad[1]} at {pretty}"))
    return rows, all_ok


def run_checker(paths: list[pathlib.Path], seeds: range) -> list[tuple]:
    from checker import check_file

    out = []
    for path in paths:
        expect, _ = header(path)
        statuses = []
        for seed in seeds:
            try:
                v = check_file(path.parent.name, str(path), seed=seed)
                statuses.append((seed, v.status.name.lower(), v.message.splitlines()[0] if v.message else ""))
            except Exception as exc:  # noqa: BLE001 - a checker crash is a result to report
                statuses.append((seed, "crash", repr(exc)))
        out.append((str(path.relative_to(HERE)), expect, statuses))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("filters", nargs="*")
    parser.add_argument("--points", type=int, default=2000)
    parser.add_argument("--checker", action="store_true", help="also run the checker on seeds 0..4")
    parser.add_argument("--seeds", type=int, default=5)
    opts = parser.parse_args()
    paths = files(opts.filters)
    rows, ok = verify(paths, opts.points)
    width = max(len(r[0]) for r in rows)
    for rel, expect, verdict, detail in rows:
        print(f"{rel:<{width}}  {expect:<4}  {verdict:<32}  {detail}")
    chapters = {}
    for path in paths:
        expect, _ = header(path)
        ch = PUZZLES[path.parent.name].chapter
        chapters.setdefault(ch, {"fail": 0, "pass": 0})[expect] += 1
    print("\ncounts:", {ch: c for ch, c in sorted(chapters.items())})
    print("verify:", "OK" if ok else "PROBLEMS (see the upper-case verdicts above)")
    if opts.checker:
        print(f"\nchecker, seeds 0..{opts.seeds - 1}:")
        false_passes, false_fails = [], []
        for rel, expect, statuses in run_checker(paths, range(opts.seeds)):
            summary = " ".join(f"{s}:{st}" for s, st, _ in statuses)
            print(f"{rel:<{width}}  {expect:<4}  {summary}")
            if expect == "fail" and any(st == "pass" for _, st, _ in statuses):
                false_passes.append((rel, [s for s, st, _ in statuses if st == "pass"]))
            if expect == "pass" and any(st != "pass" for _, st, _ in statuses):
                false_fails.append((rel, [(s, st, m) for s, st, m in statuses if st != "pass"]))
        print("\nwrong answers the checker PASSES (seeds):")
        for rel, seeds in false_passes:
            print(f"  {rel}  {seeds}")
        print("right answers the checker does not pass:")
        for rel, bad in false_fails:
            print(f"  {rel}  {bad}")
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception:  # noqa: BLE001 - any crash: its traceback, and exit 2
        traceback.print_exc()
        sys.exit(2)
