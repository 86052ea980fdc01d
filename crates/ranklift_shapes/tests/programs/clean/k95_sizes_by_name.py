"""Layer widths renamed by a dict comprehension (string keys, a filter on the levels kept);
the weights and the input are made for the same level."""

import numpy as np

widths = {1: 8, 2: 16, 3: 32}
by_name = {str(level): w for level, w in widths.items() if level < 3}
x = np.ones((4, by_name["2"]))
w = np.ones((by_name["2"], 3))
y = x @ w
