"""Batches prepared as a list of tensors: there is no DataLoader to give a sampler."""
import torch
import torch.nn as nn

X = torch.randn(640, 3)
y = X @ torch.tensor([[1.0], [2.0], [-1.0]])
batches = list(zip(X.split(32), y.split(32)))

model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    for xb, yb in batches:
        optimizer.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        optimizer.step()
