# The same options, right: the projection takes the feature channels.
import argparse

import torch
import torch.nn as nn

opt = argparse.Namespace(imgH=32, imgW=64, input_channel=1, output_channel=32, num_class=12)
opt.hidden_size = opt.output_channel


class Recogniser(nn.Module):
    def __init__(self, opt):
        super().__init__()
        self.features = nn.Conv2d(opt.input_channel, opt.output_channel, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d((None, 1))
        self.project = nn.Linear(opt.hidden_size, opt.num_class)

    def forward(self, x):
        f = self.pool(self.features(x).permute(0, 3, 1, 2)).squeeze(3).contiguous()
        return self.project(f)


net = Recogniser(opt)
print(net(torch.randn(2, opt.input_channel, opt.imgH, opt.imgW)).shape)
