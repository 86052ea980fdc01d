"""A layer imported from the file that defines it (`torch.nn.modules.batchnorm`), as
torchvision does: it is `torch.nn.BatchNorm2d`, and checks its channels."""

import torch
from torch.nn.modules.batchnorm import BatchNorm2d
from torch.nn.modules.conv import Conv2d

conv = Conv2d(3, 16, kernel_size=3, padding=1)
norm = BatchNorm2d(8)
x = torch.randn(2, 3, 8, 8)
y = norm(conv(x))
