# numba's CUDA kernels are launched by subscription, `kernel[blocks, threads](args)`: a function
# decorated with `cuda.jit` is not a function any more (pylops' `_fourierradon2d_cuda.py`). A
# stand-in for `numba.cuda` that behaves the same way lets this run without a GPU.
import numpy as np


class _Launcher:
    def __init__(self, fn):
        self.fn = fn

    def __getitem__(self, config):
        return self.fn


class cuda:
    @staticmethod
    def jit(fn):
        return _Launcher(fn)


@cuda.jit
def scale(x, k):
    x *= k


buf = np.ones(4)
scale[1, 32](buf, 2.0)
print(buf)
