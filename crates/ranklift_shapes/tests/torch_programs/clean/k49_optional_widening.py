"""A block holds its widening projection only when asked (`self.proj = Widen(width) if widen
else None`, a module of its own) and tests it with `if self.proj:`; each head is built for
the width its block gives."""

import torch
from torch import nn


class Widen(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(width, 2 * width)

    def forward(self, x):
        return self.fc(x)


class Block(nn.Module):
    def __init__(self, width, widen):
        super().__init__()
        self.mlp = nn.Linear(width, width)
        self.proj = Widen(width) if widen else None

    def forward(self, x):
        x = x + self.mlp(x)
        if self.proj:
            x = self.proj(x)
        return x


x = torch.randn(2, 6, 32)
print(nn.Linear(64, 10)(Block(32, widen=True)(x)).shape)
print(nn.Linear(32, 10)(Block(32, widen=False)(x)).shape)
