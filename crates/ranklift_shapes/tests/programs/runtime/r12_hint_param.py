# inputs: 4 | 2
import sys
from typing import Annotated
import numpy as np


def head(x: Annotated[np.ndarray, "n 4"], k):
    return x[:, :k] @ np.ones((4, 1))


h = head(np.ones((2, 4)), int(sys.argv[1]))
