"""One grid built for a single image, used on a batch of two."""

import torch
import torch.nn.functional as F

images = torch.randn(2, 3, 16, 16)
theta = torch.tensor([[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]])
grid = F.affine_grid(theta, [1, 3, 8, 8], align_corners=False)
warped = F.grid_sample(images, grid, align_corners=False)
