# An attention layer the analysis does not model, between layers it does.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
        self.norm = nn.LayerNorm(d)
        self.ff = nn.Linear(d, d)

    def forward(self, x):
        a, _ = self.attn(x, x, x)
        return self.ff(self.norm(x + a))


print(Block(32)(torch.randn(2, 5, 32)).shape)
