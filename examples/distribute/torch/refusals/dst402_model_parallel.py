"""A model split across two GPUs by hand (model parallelism)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class TwoGPUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.part1 = nn.Linear(16, 64).to("cuda:0")
        self.part2 = nn.Linear(64, 1).to("cuda:1")

    def forward(self, x):
        h = torch.relu(self.part1(x.to("cuda:0")))
        return self.part2(h.to("cuda:1"))


loader = DataLoader(TensorDataset(torch.randn(256, 16), torch.randn(256, 1)), batch_size=32, shuffle=True)
model = TwoGPUNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for xb, yb in loader:
    optimizer.zero_grad()
    nn.functional.mse_loss(model(xb), yb.to("cuda:1")).backward()
    optimizer.step()
