"""A custom Dataset and a model with BatchNorm (whose running statistics DDP keeps equal)."""
import math

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Spirals(Dataset):
    """Two interleaved spirals, generated once, deterministically."""

    def __init__(self, n=1000):
        gen = torch.Generator().manual_seed(17)
        t = torch.rand(n, generator=gen) * 3 * math.pi
        self.labels = torch.randint(0, 2, (n,), generator=gen)
        sign = self.labels.float() * 2 - 1
        self.points = torch.stack([sign * t * torch.cos(t), sign * t * torch.sin(t)], dim=1) / 10
        self.points += 0.05 * torch.randn(n, 2, generator=gen)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.points[i], self.labels[i]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(2, 64), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Linear(64, 64), nn.BatchNorm1d(64), nn.ReLU(),
            nn.Linear(64, 2),
        )

    def forward(self, x):
        return self.layers(x)


torch.manual_seed(0)
loader = DataLoader(Spirals(), batch_size=50, shuffle=True, drop_last=True)
net = Net()
opt = torch.optim.Adam(net.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
for epoch in range(5):
    net.train()
    for points, labels in loader:
        opt.zero_grad()
        loss = loss_fn(net(points), labels)
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: loss {loss.item():.3f}")
