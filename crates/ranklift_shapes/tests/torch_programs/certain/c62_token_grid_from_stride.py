"""A video transformer's stem derives its token grid from the patch convolution's own stride
(`self.proj.stride`), splits the class token off its patches (`torch.tensor_split`) and pools
the patches' grid; the classifier is sized for the grid before pooling."""

import torch
from torch import nn


class Stem(nn.Module):
    def __init__(self, size=(4, 32, 32), dim=16):
        super().__init__()
        self.proj = nn.Conv3d(3, dim, (3, 7, 7), stride=(2, 4, 4), padding=(1, 3, 3))
        self.grid = [s // k for s, k in zip(size, self.proj.stride)]
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos = nn.Parameter(torch.zeros(1, 1 + self.grid[0] * self.grid[1] * self.grid[2], dim))
        self.pool = nn.Conv3d(dim, dim, 3, stride=(1, 2, 2), padding=1, groups=dim)

    def forward(self, x):
        x = self.proj(x).flatten(2).transpose(1, 2)
        x = torch.cat((self.cls.expand(x.shape[0], -1, -1), x), dim=1) + self.pos
        cls, patches = torch.tensor_split(x, (1,), dim=1)
        b, _, c = patches.shape
        patches = patches.transpose(1, 2).reshape((b, c) + tuple(self.grid))
        pooled = self.pool(patches).flatten(2).transpose(1, 2)
        return torch.cat((cls, pooled), dim=1)


stem = Stem()
tokens = stem(torch.rand(2, 3, 4, 32, 32))
head = nn.Linear(16 * (1 + 2 * 8 * 8), 10)
print(head(tokens.flatten(1)).shape)
