"""A dataset that is 'downloaded' (generated and cached to disk) on first use, torchvision-style.

The cache goes to $CHECKPOINT_DIR (a directory every process can read: on a cluster, a shared
file system), else to the temp directory."""
import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class CachedSines(Dataset):
    """Fetches its data into `root` when asked to (`download=True`), then reads it from there."""

    def __init__(self, root, download=False):
        path = os.path.join(root, "sines.pt")
        if download and not os.path.exists(path):
            gen = torch.Generator().manual_seed(31)
            x = torch.rand(600, 1, generator=gen) * 6.28
            torch.save({"x": x, "y": torch.sin(x)}, path)
        data = torch.load(path)
        self.x, self.y = data["x"], data["y"]

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


torch.manual_seed(0)
root = os.environ.get("CHECKPOINT_DIR", tempfile.gettempdir())
train_set = CachedSines(root, download=True)
loader = DataLoader(train_set, batch_size=20, shuffle=True)
model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(4):
    for x, y in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
