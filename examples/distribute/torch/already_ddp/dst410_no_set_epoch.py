"""A DDP program that never calls set_epoch: every epoch replays the first epoch's order."""
import os

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

dist.init_process_group("gloo")
rank = dist.get_rank()
dataset = TensorDataset(torch.randn(512, 4), torch.randn(512, 1))
sampler = DistributedSampler(dataset, shuffle=True)
loader = DataLoader(dataset, batch_size=32, sampler=sampler)
model = DDP(nn.Linear(4, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(3):
    for xb, yb in loader:
        optimizer.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        optimizer.step()
    if rank == 0:
        print(f"epoch {epoch} done")
dist.destroy_process_group()
