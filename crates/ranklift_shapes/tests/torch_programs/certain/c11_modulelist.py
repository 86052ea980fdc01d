# An MLP from a list of widths, with the output layer built from the wrong width.
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.hidden = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes, sizes[1:])])
        self.head = nn.Linear(sizes[0], 1)

    def forward(self, x):
        for layer in self.hidden:
            x = torch.relu(layer(x))
        return self.head(x)


mlp = MLP([20, 64, 32])
y = mlp(torch.randn(5, 20))
