# TensorFlow's "same" padding computed once from the image size, then `F.conv2d` with the
# layer's own weight (a `Conv2d` subclass, its stride given as a one-item list): the
# classifier takes the strided feature map.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Conv2dSame(nn.Conv2d):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, image_size=None):
        super().__init__(in_channels, out_channels, kernel_size, stride, bias=False)
        self.stride = self.stride if len(self.stride) == 2 else [self.stride[0]] * 2
        ih, iw = image_size
        kh, kw = self.weight.size()[-2:]
        sh, sw = self.stride
        oh, ow = math.ceil(ih / sh), math.ceil(iw / sw)
        pad_h = max((oh - 1) * sh + kh - ih, 0)
        pad_w = max((ow - 1) * sw + kw - iw, 0)
        self.pad = nn.ZeroPad2d((pad_w // 2, pad_w - pad_w // 2, pad_h // 2, pad_h - pad_h // 2))

    def forward(self, x):
        x = self.pad(x)
        return F.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


conv = Conv2dSame(3, 4, 3, stride=[2], image_size=(16, 16))
fc = nn.Linear(4 * 8 * 8, 10)
print(fc(conv(torch.randn(2, 3, 16, 16)).flatten(1)).shape)
