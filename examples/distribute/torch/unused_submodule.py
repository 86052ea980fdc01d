"""A model class that builds a layer its forward never uses (a leftover `self.label_emb`, as in
PyTorch-GAN's SGAN generator): those parameters never get a gradient, and DDP, which waits for
every parameter's gradient, fails at the next iteration unless told to expect unused ones."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.label_emb = nn.Embedding(10, 8)  # left over from a conditional version
        self.net = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(9)
X = torch.randn(1280, 6, generator=gen)
y = X[:, :3].sum(dim=1, keepdim=True) - X[:, 3:4]
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
model = Regressor()
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
loss_fn = nn.MSELoss()

for epoch in range(3):
    total = 0.0
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total / len(loader):.4f}")
