# expect: pass
# puzzle: cumsum
# A correct answer as nested Python lists of floats.

def jac(x):
    return [[1 / 20 if i <= o else 0.0 for i in range(10)] for o in range(10)]
