# Properties with setters of the class's own (`property(get, set)` and `@x.setter`): the setter
# runs on assignment and stores what it stores; the object's other attributes stay as assigned.
import numpy as np


class Benchmark:
    def getfopt(self):
        return self._fopt

    def setfopt(self, fopt):
        self._fopt = float(fopt)

    fopt = property(getfopt, setfopt)

    def __init__(self, dim):
        self.fopt = 3.0
        self.rotation = np.eye(dim)

    def __call__(self, x):
        return np.dot(x, self.rotation) + self.fopt


class Scaled:
    def __init__(self, dim):
        self.scale = dim
        self.w = np.ones((dim, 2))

    @property
    def scale(self):
        return self._scale

    @scale.setter
    def scale(self, s):
        self._scale = np.full(2, float(s))

    def __call__(self, x):
        return x @ self.w * self.scale


print(Benchmark(4)(np.ones((3, 4))).shape, Scaled(4)(np.ones((3, 4))).shape)
