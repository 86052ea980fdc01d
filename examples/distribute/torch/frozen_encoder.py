"""Image-captioning shape: a pretrained encoder kept frozen by a module-level flag, a decoder
trained; the encoder's optimizer exists only when fine-tuning."""
import os
import tempfile

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fine_tune_encoder = False


class Encoder(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, dim), nn.ReLU())
        self.fine_tune(fine_tune_encoder)

    def forward(self, x):
        return self.body(x)

    def fine_tune(self, fine_tune=True):
        for p in self.parameters():
            p.requires_grad = fine_tune


torch.manual_seed(0)
gen = torch.Generator().manual_seed(3)
x = torch.randn(512, 8, generator=gen)
y = (x[:, :5] * torch.arange(5.0)).argmax(dim=1)
loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True)

encoder = Encoder()
decoder = nn.Linear(16, 5)
encoder_optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-4) if fine_tune_encoder else None
decoder_optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-2)
criterion = nn.CrossEntropyLoss()

for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        loss = criterion(decoder(encoder(xb)), yb)
        decoder_optimizer.zero_grad()
        if encoder_optimizer is not None:
            encoder_optimizer.zero_grad()
        loss.backward()
        decoder_optimizer.step()
        if encoder_optimizer is not None:
            encoder_optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total / len(loader):.4f}")

torch.save(decoder.state_dict(), os.path.join(tempfile.gettempdir(), "frozen_encoder_decoder.pt"))
