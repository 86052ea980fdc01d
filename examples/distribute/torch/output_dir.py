"""Creates its output directory with os.makedirs and no exist_ok (every rank runs it: the second
one to get there would fail with FileExistsError), then writes its samples there."""
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

out_dir = "samples"
os.makedirs(out_dir)
torch.manual_seed(0)
gen = torch.Generator().manual_seed(13)
X = torch.randn(480, 6, generator=gen)
y = (X.sum(dim=1) > 0).long()
loader = DataLoader(TensorDataset(X, y), batch_size=24, shuffle=True)
model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(3):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
    with open(os.path.join(out_dir, f"epoch{epoch}.txt"), "w") as f:
        f.write(f"{loss.item():.6f}\n")
