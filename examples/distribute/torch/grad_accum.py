"""Gradient accumulation: four micro-batches per optimizer step."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ACCUM = 4

torch.manual_seed(0)
gen = torch.Generator().manual_seed(11)
X = torch.randn(1024, 10, generator=gen)
y = (X[:, :3].sum(dim=1, keepdim=True) > 0).float()
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)

model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)
criterion = nn.BCEWithLogitsLoss()

for epoch in range(3):
    optimizer.zero_grad()
    for i, (xb, yb) in enumerate(loader):
        loss = criterion(model(xb), yb) / ACCUM
        loss.backward()
        if (i + 1) % ACCUM == 0:
            optimizer.step()
            optimizer.zero_grad()
    print(f"epoch {epoch}: last micro-batch loss {loss.item() * ACCUM:.4f}")
