# expect: pass
# mistake: none: two plain nested Python lists with 0.5 on the diagonal
import jax.numpy as np


def jac(x, y):
    half = [[0.5 if i == j else 0.0 for j in range(10)] for i in range(10)]
    return [half, half]
