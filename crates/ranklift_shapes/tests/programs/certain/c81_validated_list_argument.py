# A list argument validated with `if not parts: raise ...` is still the caller's list after the
# check (its truth is decided by its items): the mismatch in the sum is found.
import numpy as np


def total(parts):
    if not parts:
        raise ValueError("nothing to add")
    out = parts[0]
    for p in parts[1:]:
        out = out + p
    return out


total([np.zeros((2, 3)), np.zeros((3, 2))])
