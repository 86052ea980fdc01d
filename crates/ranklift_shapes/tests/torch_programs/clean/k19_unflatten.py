# unflatten with -1, as a method and as a layer, before a convolution.
import torch
import torch.nn as nn

x = torch.randn(5, 64 * 7 * 7)
maps = x.unflatten(1, (-1, 7, 7))
up = nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1)(maps)
dec = nn.Sequential(nn.Linear(16, 8 * 9), nn.Unflatten(1, (8, 9)), nn.Conv1d(8, 4, 3))
print(up.shape, dec(torch.randn(5, 16)).shape, torch.randn(2, 6).unflatten(-1, (2, 3)).shape)
