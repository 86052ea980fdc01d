"""An exponential moving average of the weights, kept by a small helper that deep-copies the
model it is given (the shape of lucidrains' `EMA` and of torch's `AveragedModel`), made once
training is under way; the averaged model is evaluated at the end.

Distributed, the helper is given the model, not its DDP wrapper: a copy of the wrapper would
hold its weights behind `.module`, where the program reads them directly."""
import copy

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class EMA:
    def __init__(self, model, beta=0.9):
        self.beta = beta
        self.ema_model = copy.deepcopy(model)

    def update(self, model):
        with torch.no_grad():
            for e, p in zip(self.ema_model.parameters(), model.parameters()):
                e.mul_(self.beta).add_(p, alpha=1 - self.beta)


torch.manual_seed(0)
gen = torch.Generator().manual_seed(6)
X = torch.randn(512, 4, generator=gen)
y = X @ torch.tensor([[1.0], [-1.0], [2.0], [0.5]])
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=True)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
ema = None
for epoch in range(3):
    for xb, yb in loader:
        optimizer.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        optimizer.step()
        if ema is not None:
            ema.update(model)
    if ema is None:
        ema = EMA(model)
with torch.no_grad():
    print(f"EMA model loss {nn.functional.mse_loss(ema.ema_model(X), y).item():.4f}, weight {ema.ema_model.weight.flatten().tolist()}")
