"""A vision transformer's blocks drop their residual branch with a per-block rate read from a
schedule (`[x.item() for x in torch.linspace(0, rate, depth)]`); the classifier after the
blocks is built for another width."""

import torch
from torch import nn


def drop_path(x, drop_prob=0.0, training=False):
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)
    random_tensor = keep_prob + torch.rand(shape, dtype=x.dtype, device=x.device)
    random_tensor.floor_()
    return x.div(keep_prob) * random_tensor


class DropPath(nn.Module):
    def __init__(self, drop_prob=None):
        super().__init__()
        self.drop_prob = drop_prob

    def forward(self, x):
        return drop_path(x, self.drop_prob, self.training)


class Block(nn.Module):
    def __init__(self, dim, drop_path=0.0):
        super().__init__()
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.drop_path = DropPath(drop_path) if drop_path > 0.0 else nn.Identity()

    def forward(self, x):
        return x + self.drop_path(self.mlp(x))


dpr = [x.item() for x in torch.linspace(0, 0.1, 4)]
blocks = nn.Sequential(*[Block(32, drop_path=dpr[i]) for i in range(4)])
head = nn.Linear(64, 10)
print(head(blocks(torch.randn(2, 5, 32))[:, 0]).shape)
