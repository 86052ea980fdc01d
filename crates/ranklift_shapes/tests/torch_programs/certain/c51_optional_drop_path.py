# A block whose stochastic depth is a module of the program or nn.Identity(), chosen by a rate
# from a schedule; either keeps the shape, and the MLP after it is sized for the wrong width.
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
        self.mlp = nn.Linear(dim + 1, dim)

    def forward(self, x):
        return self.mlp(self.drop_path(self.norm(x)))


rates = torch.linspace(0, 0.1, 2).tolist()
blocks = nn.Sequential(*[Block(16, r) for r in rates])
print(blocks(torch.randn(2, 5, 16)).shape)
