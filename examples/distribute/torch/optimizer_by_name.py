"""The optimizer class chosen on the command line: `getattr(torch.optim, args.optimizer)`."""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

parser = argparse.ArgumentParser()
parser.add_argument("--optimizer", default="AdamW", help="a class of torch.optim")
parser.add_argument("--lr", type=float, default=3e-3)
parser.add_argument("--epochs", type=int, default=3)
args = parser.parse_args()

torch.manual_seed(0)
gen = torch.Generator().manual_seed(7)
x = torch.randn(640, 6, generator=gen)
y = (x[:, :3].sum(dim=1, keepdim=True) > 0).float()
loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 1))
optimizer = getattr(torch.optim, args.optimizer)(model.parameters(), lr=args.lr)
loss_fn = nn.BCEWithLogitsLoss()
for epoch in range(args.epochs):
    for xb, yb in loader:
        optimizer.zero_grad()
        loss = loss_fn(model(xb), yb)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
torch.save(model.state_dict(), "by_name.pt")
