"""The classic train/validation split of one dataset by index lists: a seeded shuffle of the
indices, a `SubsetRandomSampler` for each part, one loader per part.

Distributed, each rank samples its own equal share of the training indices (the validation
loader stays whole: every rank evaluates all of it and rank 0 prints the result)."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.sampler import SubsetRandomSampler

torch.manual_seed(0)
gen = torch.Generator().manual_seed(4)
X = torch.randn(1000, 8, generator=gen)
y = (X[:, :4].sum(dim=1) > X[:, 4:].sum(dim=1)).long()
dataset = TensorDataset(X, y)

num_train = len(dataset)
indices = list(range(num_train))
split = int(np.floor(0.2 * num_train))
np.random.seed(7)
np.random.shuffle(indices)
train_idx, valid_idx = indices[split:], indices[:split]
train_sampler = SubsetRandomSampler(train_idx)
valid_sampler = SubsetRandomSampler(valid_idx)
train_loader = DataLoader(dataset, batch_size=25, sampler=train_sampler)
valid_loader = DataLoader(dataset, batch_size=100, sampler=valid_sampler)

model = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
criterion = nn.CrossEntropyLoss()

for epoch in range(3):
    model.train()
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in valid_loader:
            correct += (model(xb).argmax(dim=1) == yb).sum().item()
    print(f"epoch {epoch}: loss {loss.item():.4f}, validation accuracy {correct / len(valid_idx):.3f}")
