"""Class-balanced sampling with a WeightedRandomSampler: no distributed counterpart to swap in."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

X = torch.randn(300, 5)
y = (torch.rand(300) < 0.1).long()
weights = torch.where(y == 1, 9.0, 1.0)
loader = DataLoader(TensorDataset(X, y), batch_size=30, sampler=WeightedRandomSampler(weights, num_samples=300))

model = nn.Linear(5, 2)
optimizer = torch.optim.Adam(model.parameters())
for epoch in range(2):
    for xb, yb in loader:
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(xb), yb).backward()
        optimizer.step()
