# A dataclass config whose fields the call sets: the generated __init__ binds them, so the
# sizes are the call's, not the class's defaults (3 and 2 would not broadcast).
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Config:
    n_in: int = 3
    n_out: int = 2
    names: list = field(default_factory=list)


cfg = Config(n_in=4, n_out=4)
w = np.ones((cfg.n_in, cfg.n_out))
b = np.zeros(cfg.n_out)
y = np.ones((10, cfg.n_in)) @ w + b
print(y.shape)
