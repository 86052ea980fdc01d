"""Warping features by a flow field, as optical-flow models do: a grid made from coordinates
plus the flow, sampled at the features' own size, then a head on the warped features."""

import torch
import torch.nn as nn
import torch.nn.functional as F

features = torch.randn(2, 8, 16, 12)
flow = torch.randn(2, 2, 16, 12)
ys, xs = torch.meshgrid(torch.arange(16.0), torch.arange(12.0), indexing="ij")
coords = torch.stack([xs, ys], dim=0).unsqueeze(0) + flow
grid = coords.permute(0, 2, 3, 1)
warped = F.grid_sample(features, grid, align_corners=True)
theta = torch.eye(2, 3).unsqueeze(0).repeat(2, 1, 1)
aligned = F.grid_sample(warped, F.affine_grid(theta, [2, 8, 8, 6], align_corners=False), align_corners=False)
head = nn.Conv2d(8, 4, kernel_size=3, padding=1)
print(head(aligned).shape)
