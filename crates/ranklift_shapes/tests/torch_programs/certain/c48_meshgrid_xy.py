# A relative-position table of (row, column) pairs built with torch.meshgrid, fed to the first
# child of a Sequential sized for three coordinates instead of two.
import torch
from torch import nn

coords_h = torch.arange(2)
coords_w = torch.arange(3)
grid = torch.stack(torch.meshgrid(coords_h, coords_w, indexing="xy"))  # (2, 3, 2)
table = grid.permute(1, 2, 0).reshape(6, 2).float()
proj = nn.Sequential(nn.Linear(3, 8), nn.ReLU())
print(proj[0](table).shape)
