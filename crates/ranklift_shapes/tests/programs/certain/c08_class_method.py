import numpy as np

class Linear:
    def __init__(self, n_in, n_out):
        self.w = np.random.randn(n_in, n_out)
        self.b = np.zeros((n_out,))

    def __call__(self, x):
        return x.dot(self.w) + self.b

layer1 = Linear(6, 4)
layer2 = Linear(5, 2)
h = layer1(np.ones((3, 6)))
y = layer2(h)
