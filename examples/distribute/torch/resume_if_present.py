"""Resume from `last.pt` in the working directory when it exists, else start afresh; save it
after every epoch. Run twice in one directory, the second run starts where the first ended."""
import os

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

EPOCHS = 3
CKPT = "last.pt"

torch.manual_seed(0)
gen = torch.Generator().manual_seed(4)
X = torch.randn(96, 5, generator=gen)
y = X.sum(dim=1, keepdim=True)
loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)

model = nn.Linear(5, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
start = 0
if os.path.exists(CKPT):
    state = torch.load(CKPT)
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    start = state["epoch"]
    print(f"resumed at epoch {start}")

for epoch in range(start, EPOCHS):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": epoch + 1}, CKPT)
