# Coordinate grids in both indexings and children of a Sequential taken by index, each used
# with the sizes they have.
import torch
from torch import nn

h, w = torch.meshgrid(torch.arange(2), torch.arange(3), indexing="ij")
assert h.shape == (2, 3)
gx, gy = torch.meshgrid([torch.arange(2), torch.arange(3)], indexing="xy")
table = torch.stack((gx, gy)).permute(1, 2, 0).reshape(6, 2).float()
proj = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 4))
out = proj[-1](proj[1](proj[0](table)))
print(out.shape, proj(table).shape)
