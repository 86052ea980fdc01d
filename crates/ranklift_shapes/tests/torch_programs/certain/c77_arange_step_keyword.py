# Sinusoidal positions: the even and odd columns are filled from
# `torch.arange(0, d_model, step=2)` (half the columns each); the projection after it expects
# one feature more than the encoding has.
import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.encoding = torch.zeros(max_len, d_model)
        pos = torch.arange(0, max_len).float().unsqueeze(dim=1)
        _2i = torch.arange(0, d_model, step=2).float()
        self.encoding[:, 0::2] = torch.sin(pos / (10000 ** (_2i / d_model)))
        self.encoding[:, 1::2] = torch.cos(pos / (10000 ** (_2i / d_model)))

    def forward(self, x):
        return self.encoding[: x.shape[1], :]


enc = PositionalEncoding(d_model=32, max_len=20)
proj = nn.Linear(33, 8)
print(proj(enc(torch.zeros(2, 12))).shape)
