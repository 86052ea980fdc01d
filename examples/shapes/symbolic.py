"""Shapes that depend on the input: nothing is certain, so the default run is silent;
`--possible` names the line that fails for some inputs, and why.

    ranklift shapes examples/shapes/symbolic.py             # no findings
    ranklift shapes --possible examples/shapes/symbolic.py  # line 17, dimension `n` unknown
    python examples/shapes/symbolic.py 3                     # fine
    python examples/shapes/symbolic.py 4                     # ValueError on line 17
"""
import sys
from typing import Annotated

import numpy as np

n = int(sys.argv[1]) if len(sys.argv) > 1 else 3
x: Annotated[np.ndarray, "n 3"] = np.random.rand(n, 3)
gram = x @ x.T + np.eye(n)  # always fine: (n, n) + (n, n)
shifted = x + np.ones((n,))  # fine only when n == 3
print(gram.shape, shifted.shape)
