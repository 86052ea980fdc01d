"""A semi-supervised GAN (like PyTorch-GAN's SGAN and InfoGAN): the discriminator has an
adversarial head and an auxiliary class head, and the generator's step throws the class output
away (`validity, _ = discriminator(fake)`). The class head gets no gradient from that loss, so
DDP must be told to expect unused parameters."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
gen = torch.Generator().manual_seed(5)
labels = torch.randint(0, 3, (960,), generator=gen)
real_data = labels.float().unsqueeze(1) + 0.3 * torch.randn(960, 2, generator=gen)
loader = DataLoader(TensorDataset(real_data, labels), batch_size=32, shuffle=True)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2))
        self.adv = nn.Linear(32, 1)
        self.aux = nn.Linear(32, 3)

    def forward(self, x):
        h = self.body(x)
        return self.adv(h), self.aux(h)


generator = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
discriminator = Discriminator()
opt_g = torch.optim.Adam(generator.parameters(), lr=1e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(discriminator.parameters(), lr=1e-3, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
ce = nn.CrossEntropyLoss()

for epoch in range(3):
    for real, label in loader:
        n = real.size(0)
        fake = generator(torch.randn(n, 4))
        # Generator: only the adversarial output matters.
        validity, _ = discriminator(fake)
        loss_g = bce(validity, torch.ones(n, 1))
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        # Discriminator: real/fake and the real samples' classes.
        real_validity, real_class = discriminator(real)
        fake_validity, _ = discriminator(fake.detach())
        loss_d = bce(real_validity, torch.ones(n, 1)) + bce(fake_validity, torch.zeros(n, 1))
        loss_d = loss_d + ce(real_class, label)
        opt_d.zero_grad()
        loss_d.backward()
        opt_d.step()
    print(f"epoch {epoch}: loss_d {loss_d.item():.3f} loss_g {loss_g.item():.3f}")
