"""`isinstance` on a value whose kind is known decides the branch: the list becomes an array of 3
elements, which cannot be reshaped into 5."""
import numpy as np


def as_row(x):
    if isinstance(x, (list, tuple)):
        x = np.array(x)
    return x.reshape(1, 5)


as_row([1.0, 2.0, 3.0])
