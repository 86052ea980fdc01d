# nanoGPT's LayerNorm with an optional bias (F.layer_norm on its own nn.Parameter weights),
# built for one width and applied to the residual stream of another.
import torch
import torch.nn as nn
import torch.nn.functional as F


class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, input):
        return F.layer_norm(input, self.weight.shape, self.weight, self.bias, 1e-5)


class Stem(nn.Module):
    def __init__(self, vocab, width):
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.wpe = nn.Parameter(torch.zeros(1, 16, width))
        self.ln = LayerNorm(width + 8, bias=False)

    def forward(self, idx):
        x = self.wte(idx) + self.wpe[:, : idx.size(1)]
        return self.ln(x)


y = Stem(50, 32)(torch.randint(0, 50, (2, 8)))
