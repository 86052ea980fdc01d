# DataLoaders used as training loops use them: a last batch smaller than the rest, drop_last,
# batch_size=None, next(iter(...)), enumerate, a Dataset subclass returning a dict (not
# followed), a collate_fn, and len() of datasets and loaders.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset, TensorDataset

x = torch.randn(50, 20)
y = torch.randint(0, 3, (50,))
ds = TensorDataset(x, y)
model = nn.Sequential(nn.Linear(20, 16), nn.ReLU(), nn.Linear(16, 3))
for xb, yb in DataLoader(ds, batch_size=16):
    out = model(xb)
    loss = F.cross_entropy(out, yb)
    both = torch.cat([out, yb.unsqueeze(1).float()], dim=1)
for xb, yb in DataLoader(ds, batch_size=16, drop_last=True):
    assert xb.shape == (16, 20)
first_x, first_y = next(iter(DataLoader(ds, batch_size=10)))
print(model(first_x).shape, first_y.shape)
for i, (xs, ys) in enumerate(DataLoader(ds, batch_size=None)):
    print(model(xs).shape, ys.shape)
    break
sample_x, sample_y = ds[3]
print(len(ds), model(sample_x).shape)


class Records(Dataset):
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return {"x": torch.randn(20), "y": i % 3}


for batch in DataLoader(Records(), batch_size=4):
    print(model(batch["x"]).shape, batch["y"].shape)


def pad(samples):
    return torch.stack([s[0] for s in samples]), torch.stack([s[1] for s in samples])


loader = DataLoader(ds, batch_size=5, collate_fn=pad)
for xb, yb in loader:
    print(model(xb).shape, len(loader))
