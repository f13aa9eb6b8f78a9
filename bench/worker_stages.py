"""Where a grading worker's time goes, stage by stage, for one whole-catalog submission.

    python bench/worker_stages.py [--class varied|copies] [--repeat 3]

Runs, in a fresh process per repeat (as a worker is), the steps a worker takes for a
submission, with the worker's XLA options: start JAX's backend, load the 46 answer files
(their module-level `jnp` code runs and compiles), trace each answer twice on one draw, batch
the traces with `vmap` and lower them as one program, compile it, run it. Prints each stage's
seconds (the median over the repeats) and their sum: the part of grading one submission that
depends on that student's own code, so that no cache shared between students could remove it
without running one student's code where another's runs.

"varied" is student 3 of `bench/grade.py`'s varied class (the 3rd mutant of every reference
answer); "copies" is the reference answers.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
STAGES = ("backend", "load", "trace", "trace again", "compare", "vmap and lower", "compile", "run")


def _measure(submission: Path) -> dict[str, float]:
    """The stages, timed in this process (a fresh one)."""
    sys.path.insert(0, str(REPO))
    from checker.grading import _worker, _zygote

    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {_zygote.WORKER_XLA_FLAGS}".strip()
    import importlib

    for module in _zygote.PRELOAD:  # what the zygote has imported before it forks a worker
        try:
            importlib.import_module(module)
        except ImportError:
            pass
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax.extend.core import jaxpr_as_fun

    from checker import puzzles
    from checker.engine import _numerics, _runner, _sampling
    from checker.engine._settings import FAST_COMPILE
    from checker.engine._stubs import relative_path

    catalog = list(puzzles())
    draws = {p.name: _sampling.draws(p, 0) for p in catalog}
    spent = dict.fromkeys(STAGES, 0.0)

    def timed(stage: str, work):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        result = work()
        spent[stage] += time.perf_counter() - start
        return result

    with _numerics.pinned():
        timed("backend", lambda: jnp.zeros(1).block_until_ready())
        traced = []
        for p in catalog:
            module = timed("load", lambda: _runner._load(submission / relative_path(p)))
            target = p.on_dynamic(module.__dict__[p.answer_name])
            first = p.dynamic(draws[p.name][0].values)
            closed = timed("trace", lambda: jax.make_jaxpr(lambda *a: target(*a))(*first))
            again = timed("trace again", lambda: jax.make_jaxpr(lambda *a: target(*a))(*first))
            timed("compare", lambda: _runner._program(closed.jaxpr) == _runner._program(again.jaxpr))
            stacked = tuple(
                np.stack([d.values[i] for d in draws[p.name]]) for i, a in enumerate(p.args) if a.static is None
            )
            traced.append((jax.vmap(jaxpr_as_fun(closed)), stacked))

        def everything(*groups):  # type: ignore[no-untyped-def]
            return [program(*group) for (program, _), group in zip(traced, groups)]

        inputs = [stacked for _, stacked in traced]
        lowered = timed("vmap and lower", lambda: jax.jit(everything).lower(*inputs))
        compiled = timed("compile", lambda: lowered.compile({**FAST_COMPILE, **_worker.BATCH_OPTIONS}))
        timed("run", lambda: [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(compiled(*inputs))])
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--class", dest="kind", choices=("varied", "copies"), default="varied")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # the fresh process's part
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(_measure(args.measure)))
        return
    sys.path.insert(0, str(REPO / "bench"))
    sys.path.insert(0, str(REPO))
    import grade

    with tempfile.TemporaryDirectory(prefix="jacpuzzles-stages-") as tmp:
        folder = Path(tmp)
        if args.kind == "varied":
            grade._varied(folder, 4)
            submission = folder / "student003"
        else:
            grade._copies(folder, 1)
            submission = folder / "student000"
        runs = []
        for _ in range(args.repeat):
            done = subprocess.run(
                [sys.executable, __file__, "--measure", str(submission)], capture_output=True, text=True, check=True
            )
            runs.append(json.loads(done.stdout.strip().splitlines()[-1]))
    medians = {stage: statistics.median(r[stage] for r in runs) for stage in STAGES}
    print(f"one {args.kind} submission, whole catalog, median of {args.repeat} fresh processes, seconds")
    for stage, seconds in medians.items():
        print(f"{stage:<16} {seconds:6.2f}")
    print(f"{'total':<16} {sum(medians.values()):6.2f}")


if __name__ == "__main__":
    main()
