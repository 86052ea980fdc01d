# The same blocks sized right: whichever module the rate picks, the shape goes through.
import torch
from torch import nn


class DropPath(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.p = p

    def forward(self, x):
        if not self.training or self.p == 0.0:
            return x
        keep = torch.rand(x.shape[0], 1, 1) > self.p
        return x * keep / (1 - self.p)


class Block(nn.Module):
    def __init__(self, dim, drop):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.drop_path = DropPath(drop) if drop > 0.0 else nn.Identity()
        self.mlp = nn.Linear(dim, dim)

    def forward(self, x):
        return x + self.mlp(self.drop_path(self.norm(x)))


rates = torch.linspace(0, 0.1, 2).tolist()
blocks = nn.Sequential(*[Block(16, r) for r in rates])
print(blocks(torch.randn(2, 5, 16)).shape, isinstance(blocks[0].drop_path, DropPath))
