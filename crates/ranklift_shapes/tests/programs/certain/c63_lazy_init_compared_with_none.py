# A benchmark function that sizes its state on first use: `self.lastshape` starts as None and
# `shape != self.lastshape` (None against a tuple: always True) runs the initialisation; the
# second call, with a population of shape (3, 4), re-sizes `self.shift`. The dot below then
# takes a (4,) vector against (3, 4) rows (cma's BBOB functions have this shape of code). Before
# `None != tuple` was decided, the branch was unknown and `self.shift`'s shape was lost.
import numpy as np


class Benchmark:
    def __init__(self):
        self.lastshape = None

    def initwithsize(self, shape):
        if self.lastshape != shape:
            self.lastshape = shape
            self.shift = np.resize(np.arange(4.0), shape)

    def __call__(self, x):
        shape = np.shape(x)
        if self.lastshape != shape:
            self.initwithsize(shape)
        return np.dot(np.ones(4), x - self.shift)


f = Benchmark()
f(np.ones(4))
f(np.ones((3, 4)))
