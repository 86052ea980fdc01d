# nn.Transformer used as the tutorials do: sequence first with masks, batch first, the encoder
# and decoder called on their own, and the output fed to a head.
import torch
import torch.nn as nn

model = nn.Transformer(d_model=32, nhead=4, num_encoder_layers=2, num_decoder_layers=1,
                       dim_feedforward=64, dropout=0.0)
src, tgt = torch.randn(9, 2, 32), torch.randn(7, 2, 32)
mask = model.generate_square_subsequent_mask(7)
out = model(src, tgt, tgt_mask=mask)
memory = model.encoder(src)
step = model.decoder(tgt, memory, tgt_mask=mask)
head = nn.Linear(32, 11)
print(head(out).shape, memory.shape, step.shape)
bf = nn.Transformer(d_model=16, nhead=2, num_encoder_layers=1, num_decoder_layers=1,
                    dim_feedforward=32, batch_first=True)
print(bf(torch.randn(3, 5, 16), torch.randn(3, 4, 16)).sum(-1).shape)
