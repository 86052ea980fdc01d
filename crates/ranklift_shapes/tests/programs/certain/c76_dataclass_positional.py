# A dataclass built with positional arguments: n_in=5, n_out=2.
from dataclasses import dataclass

import numpy as np


@dataclass
class Layer:
    n_in: int
    n_out: int = 8

    def __post_init__(self):
        self.w = np.ones((self.n_in, self.n_out))


layer = Layer(5, 2)
x = np.ones((10, 4))
y = x @ layer.w
