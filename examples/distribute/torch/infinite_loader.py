"""A step-driven `while True` loop over an "infinite" loader, shaped like karpathy's makemore: a
small class wraps a DataLoader whose RandomSampler draws with replacement (num_samples=1e10) and
hands out batches with `.next()`; the loop stops at a step count.

Distributed, there are no shards to split when every draw is independent: each rank must draw
its *own* stream. The sampler seeds itself from torch's global generator, which every rank seeds
alike with `torch.manual_seed`, so without a per-rank seed every rank draws the same batches."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

MAX_STEPS = 160


class InfiniteDataLoader:
    def __init__(self, dataset, **kwargs):
        train_sampler = torch.utils.data.RandomSampler(dataset, replacement=True, num_samples=int(1e10))
        self.train_loader = DataLoader(dataset, sampler=train_sampler, **kwargs)
        self.data_iter = iter(self.train_loader)

    def next(self):
        try:
            batch = next(self.data_iter)
        except StopIteration:
            self.data_iter = iter(self.train_loader)
            batch = next(self.data_iter)
        return batch


if __name__ == "__main__":
    torch.manual_seed(1337)
    gen = torch.Generator().manual_seed(6)
    X = torch.randn(4096, 8, generator=gen)
    y = X[:, :4].sum(dim=1, keepdim=True) * 0.5 - X[:, 4:5]
    batch_loader = InfiniteDataLoader(TensorDataset(X, y), batch_size=32)
    model = nn.Sequential(nn.Linear(8, 32), nn.GELU(), nn.Linear(32, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    step = 0
    while True:
        xb, yb = batch_loader.next()
        loss = nn.functional.mse_loss(model(xb), yb)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        if step % 40 == 0:
            print(f"step {step} | loss {loss.item():.4f}")
        step += 1
        if MAX_STEPS >= 0 and step >= MAX_STEPS:
            break
