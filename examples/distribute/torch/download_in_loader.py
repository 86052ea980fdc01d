"""A dataset 'downloaded' inside the DataLoader call that reads it, torchvision-tutorial style."""
import os
import tempfile

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset


class CachedWaves(Dataset):
    """Fetches its data into `root` when asked to (`download=True`), then reads it from there."""

    def __init__(self, root, download=False):
        path = os.path.join(root, "waves.pt")
        if download and not os.path.exists(path):
            gen = torch.Generator().manual_seed(53)
            x = torch.rand(512, 1, generator=gen) * 6.28
            torch.save({"x": x, "y": torch.cos(x)}, path)
        data = torch.load(path)
        self.x, self.y = data["x"], data["y"]

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


def main():
    torch.manual_seed(0)
    root = os.environ.get("CHECKPOINT_DIR", tempfile.gettempdir())
    loader = DataLoader(
        CachedWaves(root, download=True),
        batch_size=16,
        shuffle=True,
    )
    model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    for epoch in range(5):
        for x, y in loader:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
