"""ndarray subclasses, object and structured dtypes (astropy-style code): NumPy functions
return a subclass's instances, and an object array's element may be any sequence."""
import numpy as np


class Tagged(np.ndarray):
    """An ndarray subclass with an attribute of its own (like astropy's Masked, Quantity)."""

    def __array_finalize__(self, obj):
        self.tag = getattr(obj, "tag", "none")

    @property
    def unmasked(self):
        return self.view(np.ndarray)


def tagged(data):
    return np.asanyarray(data).view(Tagged)


t = tagged(np.ones((2, 1)))
s = np.squeeze(t)  # a Tagged: ndarray.squeeze keeps the subclass
assert s.unmasked.shape == (2,)
assert s.tag == "none"

# Object arrays: an element may be an array of any shape.
cols = np.empty(shape=(2,), dtype=object)
cols[0] = np.array([[1, 2], [3, 4]], dtype=np.float32)
cols[1] = np.array([[1, 2, 3], [4, 5.5, 6]], dtype=np.float32)
ragged = np.array([[45.0, 56], np.array([11, 12, 13])], "O")
assert ragged.shape == (2,)
matrix = np.zeros(1, dtype=np.object_)
matrix[0] = np.arange(0.0, 5.0)
assert matrix[0].shape == (5,)

# Structured: one record per element.
pv = np.zeros(2, dtype=[("p", "f8", (2,)), ("v", "f8")])
pv[1] = ((2.0, 2.0), 3.0)
assert pv["p"].shape == (2, 2)
