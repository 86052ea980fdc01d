"""Hogwild training: processes that share one model in memory are already parallel."""
import torch
import torch.multiprocessing as mp
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def train(model, dataset):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for xb, yb in DataLoader(dataset, batch_size=16, shuffle=True):
        optimizer.zero_grad()
        nn.functional.mse_loss(model(xb), yb).backward()
        optimizer.step()


if __name__ == "__main__":
    dataset = TensorDataset(torch.randn(256, 4), torch.randn(256, 1))
    model = nn.Linear(4, 1)
    model.share_memory()
    workers = [mp.Process(target=train, args=(model, dataset)) for _ in range(2)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
