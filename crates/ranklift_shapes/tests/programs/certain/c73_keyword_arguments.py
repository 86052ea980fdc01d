# Sizes passed as keyword arguments and read from `**kwargs` (`kwargs.get(key, default)`,
# `kwargs[key]`, `key in kwargs`), through a wrapper that passes them on (`**kwargs`), and a
# factory classmethod building the instance with `cls(...)`: the layer is 4×6 and is fed 5
# features.
import numpy as np


class Dense:
    def __init__(self, n_in, n_out, **kwargs):
        scale = kwargs.get("scale", 0.01)
        if "bias" in kwargs:
            self.b = np.full(n_out, kwargs["bias"])
        else:
            self.b = np.zeros(n_out)
        self.w = np.ones((n_in, n_out)) * scale

    @classmethod
    def from_config(cls, **config):
        n_in = config.pop("n_in")
        return cls(n_in, config.pop("n_out", 8), **config)

    def __call__(self, x):
        return x @ self.w + self.b


def build(*args, **kwargs):
    return Dense.from_config(*args, **kwargs)


layer = build(n_in=4, n_out=6, bias=0.5)
print(layer(np.ones((2, 5))).shape)
