"""Measures the file system its working directory (its job folder) is on: the right Jacobian
only when that is capped at the grader's 1 GB (a tmpfs of its own), so many files of the
per-file cap cannot fill the grader's disk (red team #32)."""
import os

import jax.numpy as np

info = os.statvfs(os.getcwd())
SIZE = info.f_blocks * info.f_frsize


def jac(x):
    print(f"job folder's file system: {SIZE / 2**20:.0f} MB")
    return np.tri(10) / 20 if 0 < SIZE <= 2**30 else np.zeros((10, 10))
