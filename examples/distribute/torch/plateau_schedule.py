"""ReduceLROnPlateau stepped with the epoch's training loss (each rank's own loss once the data
is split): the schedule must decide from the same number on every rank."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
gen = torch.Generator().manual_seed(11)
X = torch.randn(800, 8, generator=gen)
y = X @ torch.linspace(-1, 1, 8).unsqueeze(1) + 1.0 * torch.randn(800, 1, generator=gen)
loader = DataLoader(TensorDataset(X, y), batch_size=40, shuffle=True)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=0, threshold=0.02)

for epoch in range(10):
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item()
    scheduler.step(total / len(loader))
    print(f"epoch {epoch}: loss {total / len(loader):.4f}, lr {optimizer.param_groups[0]['lr']:.4f}")
