# The same lazy initialisation, called right (the rows are on the right of the dot): no finding.
# Comparisons of None with a tuple, a number or a string, and of a tuple with a number or a
# string, are all False; one of each below decides a branch that would otherwise fail.
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
        return np.dot(x - self.shift, np.ones(4))


f = Benchmark()
f(np.ones(4))
f(np.ones((3, 4)))
shape = (3, 4)
if shape == None:  # noqa: E711
    bad = np.zeros(2) + np.zeros(3)
if shape == 3 or shape == "3, 4" or None == "x" or None == 0.5:  # noqa: E711
    bad = np.zeros(2) + np.zeros(3)
