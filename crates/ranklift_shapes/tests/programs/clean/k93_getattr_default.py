"""`getattr(value, "unit", None)` of a number is the default: the branch that reads
`value.unit` runs only for values that have one, never for the int given here.
"""

import numpy as np


def table(value):
    unit = getattr(value, "unit", None)
    if unit is None:
        return np.zeros((value, 2))
    return np.zeros((value.unit, 2))


rows = table(4) @ np.zeros((2, 3))
print(rows.shape)
