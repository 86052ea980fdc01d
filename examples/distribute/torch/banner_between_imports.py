"""A script that prints a banner between its standard-library imports and its torch imports (the
Python version, before the slow import). Only rank 0 prints it; the setup ranklift adds (the rank
variables, the process group, its imports) stays outside that `if`, and the banner's guard can
read the rank it needs."""
import os
import sys
print(f"python {sys.version.split()[0]}, starting")

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
gen = torch.Generator().manual_seed(5)
X = torch.randn(640, 6, generator=gen)
y = X @ torch.randn(6, 1, generator=gen)
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for epoch in range(3):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
torch.save(model.state_dict(), os.path.join(os.environ.get("OUT_DIR", "."), "banner_model.pt"))
