# A vector quantiser looks its codes up in a codebook (`F.embedding`); the decoder's first
# convolution then expects one channel more than the code size.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Quantize(nn.Module):
    def __init__(self, dim, n_embed):
        super().__init__()
        self.register_buffer("embed", torch.randn(dim, n_embed))

    def forward(self, x):
        flat = x.reshape(-1, x.shape[-1])
        dist = flat.pow(2).sum(1, keepdim=True) - 2 * flat @ self.embed
        ids = dist.argmin(1).view(*x.shape[:-1])
        return F.embedding(ids, self.embed.transpose(0, 1))


quantize = Quantize(16, 32)
decode = nn.Conv2d(17, 8, 3, padding=1)
codes = quantize(torch.randn(2, 4, 4, 16)).permute(0, 3, 1, 2)
print(decode(codes).shape)
