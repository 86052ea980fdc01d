# A VQGAN-style encoder: each resolution's blocks grouped on a bare `nn.Module()` used as a
# namespace (`down.block`, `down.downsample`), the groups kept in an `nn.ModuleList`, and the
# middle blocks on another bare module. The output convolution takes the first width.
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, ch=16, mult=(1, 2), out=4):
        super().__init__()
        self.conv_in = nn.Conv2d(3, ch, 3, padding=1)
        self.down = nn.ModuleList()
        cin = ch
        for i, m in enumerate(mult):
            down = nn.Module()
            down.block = nn.ModuleList([nn.Conv2d(cin, ch * m, 3, padding=1)])
            cin = ch * m
            if i != len(mult) - 1:
                down.downsample = nn.Conv2d(cin, cin, 3, stride=2, padding=1)
            self.down.append(down)
        self.mid = nn.Module()
        self.mid.block_1 = nn.Conv2d(cin, cin, 3, padding=1)
        self.conv_out = nn.Conv2d(ch, out, 3, padding=1)

    def forward(self, x):
        h = self.conv_in(x)
        for i in range(len(self.down)):
            h = self.down[i].block[0](h)
            if i != len(self.down) - 1:
                h = self.down[i].downsample(h)
        return self.conv_out(self.mid.block_1(h))


print(Encoder()(torch.randn(1, 3, 16, 16)).shape)
