# A U-Net step: the upsampled map and the skip connection differ on an odd-sized input.
import torch
import torch.nn as nn


class Up(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.up = nn.ConvTranspose2d(cin, cout, kernel_size=2, stride=2)
        self.conv = nn.Conv2d(2 * cout, cout, 3, padding=1)

    def forward(self, x, skip):
        x = self.up(x)
        x = torch.cat([x, skip], dim=1)
        return self.conv(x)


down = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.MaxPool2d(2))
skip = torch.randn(1, 32, 33, 33)
bottom = down(torch.randn(1, 3, 33, 33))
up = Up(32, 32)
y = up(bottom, skip)
