"""Train the asymmetric lookup's choice variables until they pick the target values.

`asymmetrical_vectored_lookup(v, k)` returns, for each row, the value of `v` at the most likely
index of `k`: an exact pick, whose true derivative with respect to `k` is zero wherever it exists.
Its custom backward rule makes one up: it reads the value the loss wants (`r - g`), finds the
entry of `v` closest to it, and sends a gradient that is negative there and positive at every
other entry, each scaled by `|g|`. Gradient descent therefore moves probability towards the
wanted entry until it becomes the argmax and the pick jumps to it.

This replays the last experiment of the notebook the indexing chapter comes from, with the kit's
own reference (`jax.custom_vjp`) and optax's Adam:

    values  [[20, 40, 30], [50, 70, 10]]   target [40, 70]
    choice  starts [[1, 0, 0], [0, 0, 1]], so it picks [20, 10]
    loss    l2 + 1e-2 * the rows' entropies, minimised by Adam at 0.1 for 10 steps

After each step the choice is put back on probability rows (clipped at a small positive floor,
then each row divided by its sum). Run from the repository root:

    python examples/train_asymmetric_lookup.py      # needs optax: pip install -e ".[examples]"

The exit code is 0 when the trained choice picks [40, 70], 1 otherwise.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import optax
from jaxtyping import Array, Float
from rich.console import Console
from rich.table import Table

from checker import puzzles

VALUES = jnp.array([[20.0, 40.0, 30.0], [50.0, 70.0, 10.0]])
START = jnp.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
TARGET = jnp.array([40.0, 70.0])
ENTROPY_WEIGHT = 1e-2
LEARNING_RATE = 0.1
STEPS = 10
# Smallest probability a choice keeps after projection; also where the entropy's log is clipped,
# so that a one-hot row (the start) has entropy 0 and a finite gradient instead of NaN.
FLOOR = 1e-6

Lookup = Callable[[Float[Array, "2 3"], Float[Array, "2 3"]], Float[Array, "2"]]


@dataclass(frozen=True)
class Step:
    """What one training step saw, before its update."""

    l2: float
    entropies: tuple[float, ...]
    picks: tuple[float, ...]


def reference_lookup() -> Lookup:
    """The indexing chapter's reference `asymmetrical_vectored_lookup`, from the catalog."""
    return next(p for p in puzzles() if p.name == "asymmetrical_vectored_lookup").f


def entropies(choice: Float[Array, "R C"]) -> Float[Array, " R"]:
    """Each row's entropy, in nats."""
    return jnp.sum(-choice * jnp.log(jnp.clip(choice, FLOOR, 1.0)), axis=-1)


def project(choice: Float[Array, "R C"]) -> Float[Array, "R C"]:
    """Back onto probability rows: every entry at least `FLOOR`, every row summing to 1."""
    kept = jnp.clip(choice, FLOOR, None)
    return kept / jnp.sum(kept, axis=-1, keepdims=True)


def train(lookup: Lookup, steps: int = STEPS) -> tuple[list[Step], Float[Array, "2 3"]]:
    """Run `steps` Adam steps on the choice; returns what each step saw and the final choice."""

    def loss(choice: Float[Array, "2 3"]) -> tuple[Float[Array, ""], tuple[Array, Array, Array]]:
        picks = lookup(VALUES, choice)
        # Half the squared error, so the upstream gradient is exactly `picks - TARGET` and the
        # backward rule's estimate `picks - g` is the target itself.
        l2 = 0.5 * jnp.sum((picks - TARGET) ** 2)
        h = entropies(choice)
        return l2 + ENTROPY_WEIGHT * jnp.sum(h), (l2, h, picks)

    optimiser = optax.adam(LEARNING_RATE)
    choice = START
    state = optimiser.init(choice)
    history = []
    for _ in range(steps):
        grads, (l2, h, picks) = jax.grad(loss, has_aux=True)(choice)
        updates, state = optimiser.update(grads, state, choice)
        choice = project(optax.apply_updates(choice, updates))
        history.append(Step(float(l2), tuple(map(float, h)), tuple(map(float, picks))))
    return history, choice


def _numbers(xs: Sequence[float]) -> str:
    return "[" + ", ".join(f"{x:g}" for x in xs) + "]"


def main() -> int:
    """Train, print each step and the outcome; 0 when the final choice picks the targets."""
    console = Console()
    lookup = reference_lookup()
    history, choice = train(lookup)

    table = Table(title="asymmetrical_vectored_lookup: learning which entries to pick")
    for heading in ("step", "l2 loss", "entropy, row 0", "entropy, row 1", "picks"):
        table.add_column(heading, justify="right")
    for i, step in enumerate(history, start=1):
        table.add_row(str(i), f"{step.l2:g}", *(f"{h:.4f}" for h in step.entropies), _numbers(step.picks))
    console.print(table)

    picks = [float(x) for x in lookup(VALUES, choice)]
    wanted = [float(x) for x in TARGET]
    percent = jnp.round(choice * 100).astype(int).tolist()
    console.print(f"final choice, in percent: {percent}")
    console.print(f"target: {_numbers(wanted)}")
    console.print(f"final picks: {_numbers(picks)}", markup=False, highlight=False)
    if picks != wanted:
        console.print(f"[red]not learned:[/] after {len(history)} steps the choice still picks {_numbers(picks)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
