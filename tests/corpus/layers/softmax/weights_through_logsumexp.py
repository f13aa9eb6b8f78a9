# expect: fail nearly-right
# Right in maths and refused: the weights as exp(z - logsumexp(z)). On a line whose largest entry
# leads by 44, logsumexp = m + log(1 + w) rounds to the ulp of m, and the leader's 1 - s keeps six
# digits where jacfwd's e / sum(e) keeps seven: the expected Jacobian is jacfwd's, rounding
# included (red team RT37's R1). The diagnosis says so, where a list of cells said nothing.
# WITNESS: x with its second entry 44.1 ahead of the others.
import jax.numpy as np
import numpy as onp

WITNESS = (onp.array([0.42332596, 44.53005036, 0.34283089, 0.41994404, 0.38141312]),)


def jac(x):
    z = x / 2
    top = np.max(z)
    s = np.exp(z - (top + np.log(np.sum(np.exp(z - top)))))
    return (np.diag(s) - s[:, None] * s[None, :]) / 2
