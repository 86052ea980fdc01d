"""An image-to-image generator's down-sampling block normalises with an affine
`InstanceNorm2d` that keeps running statistics; the norm is built for one channel more than
the convolution before it gives."""

import torch
from torch import nn


def down(c_in, c_out):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, kernel_size=4, stride=2, padding=1, bias=False),
        nn.InstanceNorm2d(c_out + 1, affine=True, track_running_stats=True),
        nn.ReLU(inplace=True),
    )


net = nn.Sequential(down(3, 16), down(16, 32))
print(net(torch.randn(2, 3, 32, 32)).shape)
