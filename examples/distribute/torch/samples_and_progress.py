"""An autoencoder that writes a grid of reconstructions with torchvision's save_image after each
epoch and draws its own progress line with sys.stdout.write (as PyTorch-GAN and many VAE
tutorials do)."""
import os
import sys

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torchvision.utils import save_image

os.makedirs("samples", exist_ok=True)
torch.manual_seed(0)
gen = torch.Generator().manual_seed(7)
images = torch.rand(512, 1, 8, 8, generator=gen)
loader = DataLoader(TensorDataset(images), batch_size=32, shuffle=True)

model = nn.Sequential(
    nn.Flatten(), nn.Linear(64, 16), nn.ReLU(), nn.Linear(16, 64), nn.Sigmoid(),
    nn.Unflatten(1, (1, 8, 8)),
)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

for epoch in range(3):
    for i, (x,) in enumerate(loader):
        optimizer.zero_grad()
        recon = model(x)
        loss = nn.functional.mse_loss(recon, x)
        loss.backward()
        optimizer.step()
        sys.stdout.write(f"\r[epoch {epoch}] [batch {i + 1}/{len(loader)}] loss {loss.item():.4f}")
        sys.stdout.flush()
    sys.stdout.write("\n")
    save_image(recon[:16], f"samples/epoch_{epoch}.png", nrow=4)
