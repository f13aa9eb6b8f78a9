# expect: error timeout
# puzzle: cumsum
# jac never returns.
import jax.numpy as np

def jac(x):
    while True:
        pass
