"""A two-layer network whose second layer was sized for the wrong input.

    ranklift shapes examples/shapes/mlp_bug.py
reports the failing line before anything runs (NumPy would raise there).
"""
import numpy as np


class Dense:
    def __init__(self, n_in, n_out):
        self.w = np.random.randn(n_in, n_out) * 0.01
        self.b = np.zeros(n_out)

    def __call__(self, x):
        return np.maximum(x @ self.w + self.b, 0.0)


def forward(x, layers):
    for layer in layers:
        x = layer(x)
    return x


batch = np.random.rand(32, 784)
hidden = Dense(784, 128)
output = Dense(256, 10)  # should be Dense(128, 10)
logits = forward(batch, [hidden, output])
probs = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
print(probs.shape)
