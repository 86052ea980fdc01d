"""A step-driven loop over a loader restarted forever by a generator, shaped like the trainers of
diffusion and language models: `cycle(dl)` yields batches pass after pass, and the loop counts
optimizer steps with `next(...)` under a progress bar.

Distributed, the loader gets a DistributedSampler, the generator's every new pass a new epoch of
it (so the ranks reshuffle as the original does), and the step count is divided by the number of
processes."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

NUM_BATCHES = 200


def cycle(dl):
    while True:
        for data in dl:
            yield data


torch.manual_seed(0)
gen = torch.Generator().manual_seed(3)
X = torch.randn(640, 6, generator=gen)
y = X @ torch.linspace(-1.0, 1.0, 6).unsqueeze(1) + 0.1 * torch.randn(640, 1, generator=gen)
train_loader = cycle(DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True))

model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=2e-2)

for i in tqdm(range(NUM_BATCHES), mininterval=5.0):
    xb, yb = next(train_loader)
    loss = nn.functional.mse_loss(model(xb), yb)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if i % 40 == 0:
        print(f"step {i}: loss {loss.item():.4f}")

torch.save(model.state_dict(), "cycled_loader.pt")
