"""Python evaluates the arguments before it calls: an argument that raises means the call (and
the method called on its result) never runs, so nothing inside it is reported (pgmpy SEM)."""
import numpy as np


class Algebra:
    def __init__(self, B=None, **kwargs):
        self.B = np.array(B)

    def graph(self):
        return self.B.shape[0]


size = Algebra(var_names=var_names).graph()  # noqa: F821
