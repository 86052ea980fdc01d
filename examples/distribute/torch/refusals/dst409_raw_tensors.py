"""Fitting raw tensors (no nn.Module): nothing for DistributedDataParallel to wrap."""
import torch
from torch.utils.data import DataLoader, TensorDataset

X = torch.randn(400, 2)
y = 3 * X[:, :1] - X[:, 1:] + 0.5
w = torch.zeros(2, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
optimizer = torch.optim.SGD([w, b], lr=0.1)
for xb, yb in DataLoader(TensorDataset(X, y), batch_size=40, shuffle=True):
    optimizer.zero_grad()
    ((xb @ w + b - yb) ** 2).mean().backward()
    optimizer.step()
