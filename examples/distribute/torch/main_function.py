"""Classify synthetic 2-D points: a main() with train/evaluate helpers and a validation loader."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class Classifier(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(2, hidden), nn.Tanh())
        self.head = nn.Linear(hidden, 3)

    def forward(self, x):
        return self.head(self.body(x))

    def predict(self, x):
        return self.forward(x).argmax(dim=1)


def make_data(n, gen):
    centers = torch.tensor([[0.0, 2.0], [2.0, -1.0], [-2.0, -1.0]])
    labels = torch.randint(0, 3, (n,), generator=gen)
    points = centers[labels] + 0.7 * torch.randn(n, 2, generator=gen)
    return TensorDataset(points, labels)


def train_one_epoch(model, loader, optimizer, loss_fn, device):
    model.train()
    running = 0.0
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(inputs), targets)
        loss.backward()
        optimizer.step()
        running += loss.item()
    return running / len(loader)


@torch.no_grad()
def evaluate(model, loader, device):
    model.eval()
    correct = total = 0
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        correct += (model.predict(inputs) == targets).sum().item()
        total += targets.numel()
    return correct / total


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    gen = torch.Generator().manual_seed(7)
    train_loader = DataLoader(make_data(1200, gen), batch_size=50, shuffle=True)
    val_loader = DataLoader(make_data(300, gen), batch_size=100)

    model = Classifier().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(3):
        loss = train_one_epoch(model, train_loader, optimizer, loss_fn, device)
        acc = evaluate(model, val_loader, device)
        print(f"epoch {epoch}: train loss {loss:.3f}, val accuracy {acc:.3f}")


if __name__ == "__main__":
    main()
