def jac(arr, index):
    return 1.0 * (np.arange(5) == {{end.pos}}), np.zeros(())
