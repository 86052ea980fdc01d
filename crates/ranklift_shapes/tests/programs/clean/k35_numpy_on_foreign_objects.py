"""NumPy functions on objects of unknown type answer through `__array_ufunc__` (a pandas Series
stays a Series): `np.log(series).diff()` is fine (real-code false alarm: 'numpy.ndarray' object
has no attribute 'diff')."""
import numpy as np


class Series:
    def __init__(self, v):
        self.v = v

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return Series(ufunc(*[i.v if isinstance(i, Series) else i for i in inputs]))

    def diff(self):
        return Series(np.diff(self.v))


def growth(frame):
    return 400 * np.log(frame["x"]).diff().v


print(growth({"x": Series(np.array([1.0, 2.0, 4.0]))}))
