# Array sizes read from a spec string with a compiled pattern (`re.compile(...).findall`):
# the weights take the spec's columns as their rows.
import re

import numpy as np

SIZE = re.compile(r"(\d+)x(\d+)")


def layer_sizes(spec):
    return [(int(r), int(c)) for r, c in SIZE.findall(spec)]


(rows, cols), (out_rows, _) = layer_sizes("8x5 5x3")
x = np.ones((rows, cols))
w = np.ones((cols, out_rows - 2))
print((x @ w).shape)
