"""A OneCycleLR schedule stepped per batch, with its step count written out by hand."""
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import OneCycleLR
from torch.utils.data import DataLoader, TensorDataset

EPOCHS = 4

torch.manual_seed(0)
gen = torch.Generator().manual_seed(13)
X = torch.randn(1024, 8, generator=gen)
y = torch.tanh(X[:, :2].sum(dim=1, keepdim=True))
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
# 4 epochs of 32 batches.
scheduler = OneCycleLR(optimizer, max_lr=0.1, total_steps=128)

for epoch in range(EPOCHS):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
        scheduler.step()
    print(f"epoch {epoch}: loss {loss.item():.4f} lr {scheduler.get_last_lr()[0]:.4f}")
