"""Loader options gathered in a dict and spread into DataLoader (as pytorch/examples' mnist does)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(10)
    X = torch.randn(640, 6, generator=gen)
    y = (X[:, 0] - X[:, 1] > 0).long()
    train_kwargs = {"batch_size": 32}
    loader_options = {"num_workers": 0, "shuffle": True}
    train_kwargs.update(loader_options)
    train_loader = DataLoader(TensorDataset(X, y), **train_kwargs)

    model = nn.Sequential(nn.Linear(6, 24), nn.ReLU(), nn.Linear(24, 2))
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
    for epoch in range(3):
        for data, target in train_loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(data), target)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
