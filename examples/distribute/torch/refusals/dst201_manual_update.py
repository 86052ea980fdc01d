"""A hand-written SGD update: no torch.optim optimizer steps, so there is no training loop to find."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Linear(4, 1)
loader = DataLoader(TensorDataset(torch.randn(128, 4), torch.randn(128, 1)), batch_size=16, shuffle=True)
for xb, yb in loader:
    model.zero_grad()
    nn.functional.mse_loss(model(xb), yb).backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.01 * p.grad
