"""Keeps the model with the best validation loss in one file (the whole model, pickled through
an open file object, saved only when the loss improves), then reloads it for a last evaluation
by a helper that also calls one of the model's own methods — the ending of PyTorch's
word-language-model example.

Distributed: rank 0 alone saves; every rank waits for that file before reading it back; the
helper, which runs on the wrapped model during training and on the reloaded plain model at the
end, reaches the model's method either way."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

SAVE = "best_model.pt"
torch.manual_seed(0)
gen = torch.Generator().manual_seed(3)
X = torch.randn(800, 6, generator=gen)
y = X @ torch.randn(6, 1, generator=gen) + 0.05 * torch.randn(800, 1, generator=gen)
train_loader = DataLoader(TensorDataset(X[:640], y[:640]), batch_size=32, shuffle=True)
val_loader = DataLoader(TensorDataset(X[640:], y[640:]), batch_size=80)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 1))
        self.register_buffer("offset", torch.zeros(1))

    def forward(self, x):
        return self.net(x)

    def baseline(self, n):
        return self.offset.expand(n, 1)


model = Regressor()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = nn.MSELoss()


def evaluate(loader):
    model.eval()
    total = 0.0
    with torch.no_grad():
        for xb, yb in loader:
            pred = model(xb) + model.baseline(len(xb))
            total += loss_fn(pred, yb).item() * len(xb)
    return total / len(loader.dataset)


best_val_loss = None
for epoch in range(4):
    model.train()
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
    val_loss = evaluate(val_loader)
    print(f"epoch {epoch}: validation loss {val_loss:.4f}")
    if best_val_loss is None or val_loss < best_val_loss:
        with open(SAVE, "wb") as f:
            torch.save(model, f)
        best_val_loss = val_loss

with open(SAVE, "rb") as f:
    model = torch.load(f, weights_only=False)
print(f"best model: validation loss {evaluate(val_loader):.4f}")
