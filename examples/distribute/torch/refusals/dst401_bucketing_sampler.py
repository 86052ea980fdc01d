"""A batch sampler of the program's own that buckets sequences by length: which samples a rank
should draw is the program's to say (no stock sampler to share)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Sampler, TensorDataset


class BucketBatchSampler(Sampler):
    def __init__(self, lengths, batch_size):
        self.order = sorted(range(len(lengths)), key=lambda i: lengths[i])
        self.batch_size = batch_size

    def __iter__(self):
        batches = [self.order[i : i + self.batch_size] for i in range(0, len(self.order), self.batch_size)]
        for b in torch.randperm(len(batches)).tolist():
            yield batches[b]

    def __len__(self):
        return (len(self.order) + self.batch_size - 1) // self.batch_size


X = torch.randn(300, 5)
y = X.sum(dim=1, keepdim=True)
lengths = torch.randint(1, 50, (300,)).tolist()
loader = DataLoader(TensorDataset(X, y), batch_sampler=BucketBatchSampler(lengths, 30))

model = nn.Linear(5, 1)
optimizer = torch.optim.Adam(model.parameters())
for epoch in range(2):
    for xb, yb in loader:
        optimizer.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        optimizer.step()
