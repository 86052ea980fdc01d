"""A program written for nn.DataParallel (one process, all GPUs), which DDP replaces."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
gen = torch.Generator().manual_seed(4)
X = torch.randn(960, 6, generator=gen)
y = (X[:, 0] * X[:, 1] > 0).long()
loader = DataLoader(TensorDataset(X, y), batch_size=40, shuffle=True)

model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 2))
if torch.cuda.device_count() > 1:
    model = nn.DataParallel(model)
model.to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(4):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
