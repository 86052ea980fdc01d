"""Old device habits: a pinned CUDA_VISIBLE_DEVICES, "cuda:0" and .cuda()."""
import os

os.environ["CUDA_VISIBLE_DEVICES"] = "0"

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

use_cuda = torch.cuda.is_available()
device = "cuda:0" if use_cuda else "cpu"

torch.manual_seed(0)
gen = torch.Generator().manual_seed(6)
X = torch.randn(512, 3, generator=gen)
y = X.sum(dim=1, keepdim=True)
loader = DataLoader(TensorDataset(X, y), batch_size=16, shuffle=False)

model = nn.Linear(3, 1)
if use_cuda:
    model.cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)

for epoch in range(3):
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = ((model(xb) - yb) ** 2).mean()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.5f}")
