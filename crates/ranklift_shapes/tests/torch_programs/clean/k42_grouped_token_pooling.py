"""An attention block pools its keys with a depthwise convolution and projects with one
group per head; the block's widths are multiples of its heads."""

import torch
from torch import nn


class PooledAttention(nn.Module):
    def __init__(self, dim, heads, out_dim):
        super().__init__()
        head_dim = out_dim // heads
        self.qkv = nn.Linear(dim, 3 * out_dim)
        self.pool_k = nn.Conv3d(head_dim, head_dim, 3, stride=(1, 2, 2), padding=1, groups=head_dim)
        self.proj = nn.Conv3d(dim, out_dim, 1, groups=heads)

    def forward(self, x):
        return self.proj(x)


block = PooledAttention(dim=18, heads=3, out_dim=48)
print(block(torch.rand(1, 18, 2, 8, 8)).shape)
