"""A running average bound on the first iteration of a loop over data of unknown length
(real-code false alarm: a *certain* W201 from the loop's first pass)."""
import sys

import numpy as np

data = np.random.rand(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
for i, x in enumerate(data):
    s = 0.99 * s + x if i > 0 else x
print(s > 0)
