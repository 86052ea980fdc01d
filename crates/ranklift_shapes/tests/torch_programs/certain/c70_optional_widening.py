"""A block holds its widening projection only when asked (`self.proj = Widen(width) if widen
else None`, a module of its own) and tests it with `if self.proj:`; the head after a widened
block is built for the width before the widening."""

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


head = nn.Linear(32, 10)
print(head(Block(32, widen=True)(torch.randn(2, 6, 32))).shape)
