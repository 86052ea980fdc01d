# A transformer block normalising over the feed-forward width instead of the model width.
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))
        self.norm = nn.LayerNorm(d_ff)

    def forward(self, x):
        return self.norm(x + self.ff(x))


block = Block(32, 128)
y = block(torch.randn(2, 7, 32))
