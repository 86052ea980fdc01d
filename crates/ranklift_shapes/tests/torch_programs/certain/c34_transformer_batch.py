# A sequence-to-sequence model built on nn.Transformer (sequence first, the default), fed
# batch-first tensors: source and target are (batch, length, d_model) with different lengths,
# so the "batch" dims torch compares are the two lengths.
import torch
import torch.nn as nn

model = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=2,
                       dim_feedforward=64)
src = torch.randn(8, 12, 32)
tgt = torch.randn(8, 10, 32)
out = model(src, tgt, tgt_mask=nn.Transformer.generate_square_subsequent_mask(10))
print(out.shape)
