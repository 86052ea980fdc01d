# `__init__` assigns through a property whose setter is the class's own (`fopt = property(getfopt,
# setfopt)`, cma's BBOB benchmark functions; also `@x.setter`): the setter runs, as in Python,
# and the object's other attributes stay known, so the product below is a certain error.
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


print(Benchmark(4)(np.ones((3, 5))))
