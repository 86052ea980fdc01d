"""Loaders built in a loop over the splits and handed out by name from a dict — the shape of
Stanford CS230's code examples: `dataloaders["train"]` trains, `dataloaders["val"]` evaluates.

Distributed, only the training loader gets a DistributedSampler (the `if split == "train":`
branch builds it); the validation loader stays whole, so the accuracy rank 0 prints is the
whole validation set's."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
gen = torch.Generator().manual_seed(5)
X = torch.randn(900, 10, generator=gen)
y = (X[:, :5].sum(dim=1) > X[:, 5:].sum(dim=1)).long()
datasets = {"train": TensorDataset(X[:720], y[:720]), "val": TensorDataset(X[720:], y[720:])}


def fetch_dataloaders(types, batch_size):
    dataloaders = {}
    for split in ["train", "val", "test"]:
        if split in types:
            if split == "train":
                dl = DataLoader(datasets[split], batch_size=batch_size, shuffle=True)
            else:
                dl = DataLoader(datasets[split], batch_size=batch_size, shuffle=False)
            dataloaders[split] = dl
    return dataloaders


def train(model, optimizer, dataloader):
    model.train()
    for xb, yb in dataloader:
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
    return loss.item()


def evaluate(model, dataloader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in dataloader:
            correct += (model(xb).argmax(dim=1) == yb).sum().item()
    return correct / len(dataloader.dataset)


if __name__ == "__main__":
    dataloaders = fetch_dataloaders(["train", "val"], batch_size=30)
    train_dl = dataloaders["train"]
    val_dl = dataloaders["val"]
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    for epoch in range(3):
        loss = train(model, optimizer, train_dl)
        print(f"epoch {epoch}: loss {loss:.4f}, validation accuracy {evaluate(model, val_dl):.3f}")
