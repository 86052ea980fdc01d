"""A configuration dict with an entry deleted before the sizes are read from it: `in` and
`del` on a dict decide the width, and the input has that width."""

import numpy as np

sizes = {"hidden": 16, "extra": 4}
del sizes["extra"]
width = sizes["hidden"] + (sizes["extra"] if "extra" in sizes else 0)
w = np.zeros((width, 3))
x = np.ones((5, 16))
y = x @ w
