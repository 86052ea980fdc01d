import numpy as np


class MLP:
    def __init__(self, sizes):
        self.layers = []
        for n_in, n_out in zip(sizes[:-1], sizes[1:]):
            self.layers.append((np.random.randn(n_in, n_out), np.zeros(n_out)))

    def forward(self, x):
        for w, b in self.layers:
            x = np.tanh(x @ w + b)
        return x


net = MLP([4, 8, 3])
out = net.forward(np.ones((5, 4)))
probs = out / out.sum(axis=1, keepdims=True)
