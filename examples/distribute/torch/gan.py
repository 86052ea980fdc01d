"""A tiny GAN on a 1-D Gaussian: two models, two optimizers, alternating steps."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
gen = torch.Generator().manual_seed(21)
real_data = 2.0 + 0.5 * torch.randn(1024, 1, generator=gen)
loader = DataLoader(TensorDataset(real_data), batch_size=64, shuffle=True)

generator = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
discriminator = nn.Sequential(nn.Linear(1, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(discriminator.parameters(), lr=1e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()

for epoch in range(3):
    for (real,) in loader:
        n = real.size(0)
        noise = torch.randn(n, 4)
        fake = generator(noise)
        # Discriminator: real vs. fake in one forward pass.
        logits = discriminator(torch.cat([real, fake.detach()]))
        labels = torch.cat([torch.ones(n, 1), torch.zeros(n, 1)])
        loss_d = bce(logits, labels)
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()
        # Generator: fool the discriminator.
        loss_g = bce(discriminator(fake), torch.ones(n, 1))
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
    print(f"epoch {epoch}: loss_d {loss_d.item():.3f} loss_g {loss_g.item():.3f} mean {fake.mean().item():.2f}")
