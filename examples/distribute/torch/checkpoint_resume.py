"""Train, save a checkpoint (model + optimizer + epoch), then resume from it in a fresh model.

The checkpoint goes to $CHECKPOINT_DIR (a directory every process can read: on a cluster, a
shared file system), else to the temp directory."""
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

CKPT = os.path.join(os.environ.get("CHECKPOINT_DIR", tempfile.gettempdir()), "resume.pt")


def build():
    model = nn.Sequential(nn.Linear(6, 24), nn.Tanh(), nn.Linear(24, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    return model, optimizer


def run_epochs(model, optimizer, loader, first, last):
    for epoch in range(first, last):
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


torch.manual_seed(0)
gen = torch.Generator().manual_seed(9)
X = torch.randn(600, 6, generator=gen)
y = X.pow(2).sum(dim=1, keepdim=True) / 6
loader = DataLoader(TensorDataset(X, y), batch_size=30, shuffle=True)

model, optimizer = build()
run_epochs(model, optimizer, loader, 0, 2)
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "epoch": 2}, CKPT)

# Resume in a fresh model, as a restarted job would.
resumed, resumed_opt = build()
state = torch.load(CKPT)
resumed.load_state_dict(state["model"])
resumed_opt.load_state_dict(state["optimizer"])
run_epochs(resumed, resumed_opt, loader, state["epoch"], 4)
