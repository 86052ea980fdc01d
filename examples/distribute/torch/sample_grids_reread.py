"""An autoencoder that saves a grid of reconstructions after each epoch's evaluation and, once
trained, reads the grids back to report how their brightness moved (as VAE and GAN tutorials
assemble their per-epoch samples into one figure at the end)."""
import os

import torch
import torch.nn as nn
from PIL import Image
from torch.utils.data import DataLoader, TensorDataset
from torchvision.utils import save_image

os.makedirs("grids", exist_ok=True)
torch.manual_seed(0)
gen = torch.Generator().manual_seed(3)
images = torch.rand(512, 1, 8, 8, generator=gen)
held_out = torch.rand(16384, 1, 8, 8, generator=gen)
loader = DataLoader(TensorDataset(images), batch_size=32, shuffle=True)

model = nn.Sequential(
    nn.Flatten(), nn.Linear(64, 16), nn.ReLU(), nn.Linear(16, 64), nn.Sigmoid(),
    nn.Unflatten(1, (1, 8, 8)),
)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)


def evaluate():
    with torch.no_grad():
        return sum(nn.functional.mse_loss(model(held_out), held_out).item() for _ in range(20)) / 20


for epoch in range(3):
    for (x,) in loader:
        optimizer.zero_grad()
        recon = model(x)
        loss = nn.functional.mse_loss(recon, x)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: held-out loss {evaluate():.4f}")
    save_image(recon[:16], f"grids/epoch_{epoch}.png", nrow=4)

grids = [Image.open(f"grids/epoch_{e}.png").convert("L") for e in range(3)]
print("mean brightness by epoch:", [g.resize((1, 1)).getpixel((0, 0)) for g in grids])
