"""Synthetic 1x12x12 images of four classes (a bright quadrant each)."""
import torch
from torch.utils.data import DataLoader, Dataset


class Quadrants(Dataset):
    def __init__(self, n, seed):
        gen = torch.Generator().manual_seed(seed)
        self.labels = torch.randint(0, 4, (n,), generator=gen)
        self.images = 0.3 * torch.randn(n, 1, 12, 12, generator=gen)
        for i, label in enumerate(self.labels.tolist()):
            r, c = divmod(label, 2)
            self.images[i, 0, r * 6:(r + 1) * 6, c * 6:(c + 1) * 6] += 1.0

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


def make_loaders(batch_size):
    train = DataLoader(Quadrants(768, seed=1), batch_size=batch_size, shuffle=True)
    val = DataLoader(Quadrants(256, seed=2), batch_size=128)
    return train, val
