"""A step-count driven loop: batches are drawn with next() and the iterator restarts when empty."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

STEPS = 120

torch.manual_seed(0)
gen = torch.Generator().manual_seed(8)
X = torch.randn(640, 4, generator=gen)
y = X[:, :1] - 2 * X[:, 1:2]
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)

model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
batches = iter(loader)
for step in range(STEPS):
    try:
        xb, yb = next(batches)
    except StopIteration:
        batches = iter(loader)
        xb, yb = next(batches)
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(xb), yb)
    loss.backward()
    optimizer.step()
    if step % 40 == 0:
        print(f"step {step}: loss {loss.item():.4f}")
