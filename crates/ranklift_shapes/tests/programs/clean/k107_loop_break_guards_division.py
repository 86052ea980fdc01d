# Step sizes for a regular grid over the axes of a shape, from the smallest axis up: each
# axis that is too short for the current step takes its own length, and the steps of the
# axes after it are recomputed — `1.0 / (ndim - dim - 1)`, which the loop's `break` keeps
# from reaching the last axis (where it would divide by zero).
import numpy as np


def steps(shape, n_points):
    dims = np.sort(np.asarray(shape))
    ndim = len(dims)
    size = float(np.prod(dims))
    step = np.full(ndim, (size / n_points) ** (1.0 / ndim))
    if (dims < step).any():
        for dim in range(ndim):
            step[dim] = dims[dim]
            size = float(np.prod(dims[dim + 1:]))
            step[dim + 1:] = (size / n_points) ** (1.0 / (ndim - dim - 1))
            if (dims >= step).all():
                break
    return np.round(step).astype(int)


print(steps((8, 10), 6), steps((2, 50, 50), 30))
