"""Trains the project's model (model.py, which has a self-test of its own)."""
import torch
from torch.utils.data import DataLoader, TensorDataset

from model import Regressor

torch.manual_seed(0)
gen = torch.Generator().manual_seed(8)
X = torch.randn(768, 6, generator=gen)
y = torch.sin(X[:, :1]) + 0.5 * X[:, 1:2]
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)

model = Regressor()
optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
for epoch in range(3):
    for xb, yb in loader:
        loss = torch.nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
torch.save(model.state_dict(), "regressor.pt")
