"""A tutorial's order: the data first (downloaded once), then each import where it is first needed."""
import os
import tempfile

import torch
from torch.utils.data import DataLoader, Dataset


class CachedSquares(Dataset):
    """Fetches its data into `root` when asked to (`download=True`), then reads it from there."""

    def __init__(self, root, download=False):
        path = os.path.join(root, "squares.pt")
        if download and not os.path.exists(path):
            gen = torch.Generator().manual_seed(41)
            x = torch.rand(480, 2, generator=gen) * 2 - 1
            torch.save({"x": x, "y": (x**2).sum(dim=1, keepdim=True)}, path)
        data = torch.load(path)
        self.x, self.y = data["x"], data["y"]

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


root = os.environ.get("CHECKPOINT_DIR", tempfile.gettempdir())
train_set = CachedSquares(root, download=True)
loader = DataLoader(train_set, batch_size=24, shuffle=True)

# Now the model.
import torch.nn as nn  # noqa: E402

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))

# And the optimizer.
import torch.optim as optim  # noqa: E402

optimizer = optim.Adam(model.parameters(), lr=0.01)
for epoch in range(4):
    for x, y in loader:
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
