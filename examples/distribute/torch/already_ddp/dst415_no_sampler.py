"""A DDP program whose training loader has no DistributedSampler: every rank reads all the data."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset

dist.init_process_group("gloo")
loader = DataLoader(TensorDataset(torch.randn(256, 4), torch.randn(256, 1)), batch_size=32, shuffle=True)
model = DDP(nn.Linear(4, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(2):
    for xb, yb in loader:
        optimizer.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        optimizer.step()
dist.destroy_process_group()
