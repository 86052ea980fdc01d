"""A per-epoch StepLR schedule, the model's own attributes read in the loop, and the whole model saved."""
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(5, 32), nn.SiLU())
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        return self.head(self.trunk(x))


def weight_norm(model):
    return model.head.weight.norm().item()


torch.manual_seed(0)
gen = torch.Generator().manual_seed(15)
X = torch.randn(800, 5, generator=gen)
y = X[:, :1] * X[:, 1:2] + X[:, 2:3]
loader = DataLoader(TensorDataset(X, y), batch_size=40, shuffle=True)

model = Regressor()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
for epoch in range(5):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
    scheduler.step()
    print(f"epoch {epoch}: loss {loss.item():.4f} |head| {weight_norm(model):.3f} lr {scheduler.get_last_lr()[0]:.3f}")

torch.save(model, os.path.join(tempfile.gettempdir(), "regressor_full.pt"))
