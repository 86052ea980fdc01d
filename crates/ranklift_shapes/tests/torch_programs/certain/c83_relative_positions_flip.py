# Relative positional encodings (Transformer-XL style): positive positions flipped with
# `torch.flip`, joined to the negative ones with `torch.cat`, then sliced around the centre
# for the sequence; the projection after them expects the model width doubled.
import math

import torch
import torch.nn as nn


class RelPositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=64):
        super().__init__()
        position = torch.arange(0, max_len, dtype=torch.float32).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * -(math.log(10000.0) / d_model))
        pe_positive = torch.zeros(max_len, d_model)
        pe_negative = torch.zeros(max_len, d_model)
        pe_positive[:, 0::2] = torch.sin(position * div_term)
        pe_positive[:, 1::2] = torch.cos(position * div_term)
        pe_negative[:, 0::2] = torch.sin(-1 * position * div_term)
        pe_negative[:, 1::2] = torch.cos(-1 * position * div_term)
        pe_positive = torch.flip(pe_positive, [0]).unsqueeze(0)
        pe_negative = pe_negative[1:].unsqueeze(0)
        self.pe = torch.cat([pe_positive, pe_negative], dim=1)

    def forward(self, x):
        centre = self.pe.size(1) // 2
        return self.pe[:, centre - x.size(1) + 1 : centre + x.size(1)]


encoding = RelPositionalEncoding(16)
proj = nn.Linear(32, 16, bias=False)
print(proj(encoding(torch.randn(2, 10, 16))).shape)
