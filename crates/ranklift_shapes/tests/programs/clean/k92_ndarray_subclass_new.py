"""An ndarray subclass whose `__new__` sets what the class only declares.

`names: tuple = ()` is a class-level default; every instance is made by `__new__`,
which stores the real names on the array view it returns. Reading `p.names` must
not fall back to the empty default (stacking zero arrays would raise).
"""

import numpy as np


class Polynomial(np.ndarray):
    names: tuple = ()

    def __new__(cls, shape, names):
        obj = super().__new__(cls, shape)
        obj.names = tuple(names)
        return obj


poly = Polynomial((2,), ("x", "y"))
columns = np.stack([np.zeros(3) for _ in poly.names])
print(columns.shape)
