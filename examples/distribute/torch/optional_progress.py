"""A progress bar only when tqdm is installed: the loop iterates
`tqdm(loader) if tqdm else loader`, a conditional expression over the loader."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

try:
    from tqdm import tqdm
except ImportError:
    tqdm = None


def train(epochs=3):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    X = torch.randn(600, 4, generator=gen)
    labels = (X[:, 0] + X[:, 1] > 0).long()
    loader = DataLoader(TensorDataset(X, labels), batch_size=30, shuffle=True)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        batches = tqdm(loader, desc=f"epoch {epoch}", leave=False) if tqdm else loader
        for xb, yb in batches:
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
