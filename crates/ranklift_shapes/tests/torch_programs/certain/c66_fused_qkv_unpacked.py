"""Windowed attention reshapes its fused projection to (3, B * heads, N, head_dim) and unbinds
query, key and value from it; the reshape was written with a leading 4."""

import torch
from torch import nn

qkv_proj = nn.Linear(32, 96)
x = torch.randn(2, 4, 4, 32)
B, H, W, _ = x.shape
qkv = qkv_proj(x).reshape(B, H * W, 3, 2, -1).permute(2, 0, 3, 1, 4)
q, k, v = qkv.reshape(4, B * 2, H * W, -1).unbind(0)
print((q @ k.transpose(-2, -1)).shape)
