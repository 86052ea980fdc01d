# nn.Transformer returns the target's shape, not the source's: a residual over the source fails.
import torch
import torch.nn as nn

model = nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                       dim_feedforward=32)
src, tgt = torch.randn(9, 2, 16), torch.randn(7, 2, 16)
out = model(src, tgt)
print((out + src).shape)
