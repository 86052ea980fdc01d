"""A streaming dataset: an IterableDataset cannot take a DistributedSampler."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, IterableDataset


class Stream(IterableDataset):
    def __iter__(self):
        gen = torch.Generator().manual_seed(0)
        for _ in range(512):
            x = torch.randn(4, generator=gen)
            yield x, x.sum(dim=0, keepdim=True)


model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
for x, y in DataLoader(Stream(), batch_size=32):
    optimizer.zero_grad()
    nn.functional.mse_loss(model(x), y).backward()
    optimizer.step()
