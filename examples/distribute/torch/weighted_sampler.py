"""Class-balanced sampling: a rare class drawn nine times as often by a WeightedRandomSampler,
which draws with replacement, `num_samples` draws an epoch.

Distributed, there is nothing to shard: each rank draws its own stream (its own seeded
generator) and its share of the epoch's draws."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

torch.manual_seed(0)
gen = torch.Generator().manual_seed(5)
X = torch.randn(600, 5, generator=gen)
y = (X[:, 0] + 0.5 * X[:, 1] > 1.3).long()
weights = torch.where(y == 1, 9.0, 1.0)
loader = DataLoader(TensorDataset(X, y), batch_size=30, sampler=WeightedRandomSampler(weights, num_samples=600))

model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(4):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
