"""Fit a small MLP to a synthetic regression problem: the plainest PyTorch training script."""
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# The data comes from its own generator: the model's seed does not change it.
gen = torch.Generator().manual_seed(1234)
X = torch.randn(1024, 8, generator=gen)
true_w = torch.randn(8, 1, generator=gen)
y = X @ true_w + 0.1 * torch.randn(1024, 1, generator=gen)
dataset = TensorDataset(X, y)
loader = DataLoader(dataset, batch_size=32, shuffle=True)

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()

for epoch in range(4):
    model.train()
    total = 0.0
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: mean loss {total / len(loader):.4f}")

torch.save(model.state_dict(), os.path.join(tempfile.gettempdir(), "plain_loop.pt"))
print("saved")
