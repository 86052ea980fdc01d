"""An image-to-image generator's down-sampling blocks normalise with `InstanceNorm2d`: affine
ones built for the channels they get, and a plain one (no affine parameters, no running
statistics) built for another count, which torch only warns about."""

import warnings

import torch
from torch import nn

warnings.simplefilter("ignore")


def down(c_in, c_out, norm):
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, kernel_size=4, stride=2, padding=1, bias=False),
        norm,
        nn.ReLU(inplace=True),
    )


net = nn.Sequential(
    down(3, 16, nn.InstanceNorm2d(16, affine=True, track_running_stats=True)),
    down(16, 32, nn.InstanceNorm2d(7)),
)
print(net(torch.randn(2, 3, 32, 32)).shape)
print(nn.InstanceNorm1d(8, track_running_stats=True)(torch.randn(8, 5)).shape)
