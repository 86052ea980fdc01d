# A per-channel scale and shift broadcast over a batch of images.
import torch

x = torch.randn(4, 3, 8, 8)
scale = torch.ones(3, 1, 1)
shift = torch.zeros(1, 3, 1, 1)
y = x * scale + shift
z = y.mean(dim=(2, 3), keepdim=True) - y
print(z.shape)
