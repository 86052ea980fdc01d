# `np.isscalar(f)` is False for an array of rank 1 or more: the function below takes its array
# branch for a (3, 5) population and returns that shape, so adding a (5, 3) array fails (cma's
# `monotoneTFosc` has this shape). Before `isscalar` was modelled, both branches were joined and
# the result's shape was lost.
import numpy as np


def transform(f):
    if np.isscalar(f):
        if f > 0.0:
            f = np.log(f)
        return f
    else:
        g = np.asarray(f).copy()
        idx = g > 0
        g[idx] = np.log(g[idx])
        return g


scores = transform(np.ones((3, 5))) + np.ones((5, 3))
