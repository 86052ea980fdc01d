"""Differentially private training with Opacus, shaped like the examples Opacus ships (mnist.py):
the model, optimizer and loader go through `PrivacyEngine.make_private`, which returns a
per-sample-gradient module, a clipping-and-noising optimizer and a Poisson-sampled loader.

Distributed, Opacus must be handed the DDP-wrapped model: it then shards its own loader across
the ranks and all-reduces the clipped, noised gradients. Wrapped after `make_private`, DDP's
averaged gradients are overwritten by each rank's own noisy ones and the ranks drift apart."""
import torch
import torch.nn as nn
from opacus import PrivacyEngine
from torch.utils.data import DataLoader, TensorDataset


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, x):
        return self.net(x)


def train(model, loader, optimizer, epoch):
    model.train()
    criterion = nn.CrossEntropyLoss()
    total = 0.0
    for data, target in loader:
        optimizer.zero_grad()
        loss = criterion(model(data), target)
        loss.backward()
        optimizer.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total / len(loader):.4f}")


def main():
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(5)
    X = torch.randn(1536, 8, generator=gen)
    y = (X[:, :3] * torch.tensor([1.0, -1.0, 0.5])).argmax(dim=1)
    train_loader = DataLoader(TensorDataset(X, y), batch_size=64)

    model = Classifier()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    privacy_engine = PrivacyEngine()
    model, optimizer, train_loader = privacy_engine.make_private(
        module=model,
        optimizer=optimizer,
        data_loader=train_loader,
        noise_multiplier=0.3,
        max_grad_norm=1.0,
    )
    for epoch in range(4):
        train(model, train_loader, optimizer, epoch)
    print(f"epsilon {privacy_engine.get_epsilon(delta=1e-5):.2f}")


if __name__ == "__main__":
    main()
