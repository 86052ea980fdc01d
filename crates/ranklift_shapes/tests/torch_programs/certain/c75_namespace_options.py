# Options written out as a namespace (a driver's or a notebook's configuration, not a command
# line): the recogniser's projection takes the hidden size, the features have the output
# channels.
import argparse

import torch
import torch.nn as nn

opt = argparse.Namespace(imgH=32, imgW=64, input_channel=1, output_channel=32, hidden_size=16,
                         num_class=12)


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
