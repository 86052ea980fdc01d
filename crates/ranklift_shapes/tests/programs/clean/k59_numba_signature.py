# A function compiled by numba for an explicit signature is dispatched on the argument types: a
# call with the wrong types fails in numba's dispatcher, before the body (PyEMD's `emd`). The
# decorator here is a stand-in with numba's behaviour (numba is not installed for the tests),
# named as numba's is.
import numpy as np


def jit(signature, **options):
    def wrap(f):
        def dispatch(*args):
            if not all(isinstance(a, np.ndarray) for a in args):
                raise TypeError("No matching definition for argument type(s)")
            return f(*args)
        return dispatch
    return wrap


@jit("float64[:](float64[:], float64[:])", forceobj=True)
def spline(t, extrema):
    return t + np.zeros((2, 3)) + extrema


try:
    spline(np.ones(4), "cubic")
except TypeError:
    pass
