"""Rank 0 saves and then waits at a barrier that the other ranks never reach: the job hangs."""
import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

dist.init_process_group("gloo")
dataset = TensorDataset(torch.randn(256, 4), torch.randn(256, 1))
loader = DataLoader(dataset, batch_size=32, sampler=DistributedSampler(dataset))
model = DDP(nn.Linear(4, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for epoch in range(2):
    loader.sampler.set_epoch(epoch)
    for xb, yb in loader:
        optimizer.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        optimizer.step()
    if dist.get_rank() == 0:
        torch.save(model.module.state_dict(), "checkpoint.pt")
        dist.barrier()
dist.destroy_process_group()
