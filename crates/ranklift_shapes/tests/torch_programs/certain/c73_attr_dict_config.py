"""A vocoder's generator reads every size from its configuration, a `dict` subclass whose items
are its attributes (`self.__dict__ = self`); the mel-spectrogram fed to it has fewer bands
than the configuration says."""

import torch
from torch import nn


class AttrDict(dict):
    def __init__(self, *args, **kwargs):
        super(AttrDict, self).__init__(*args, **kwargs)
        self.__dict__ = self


class Generator(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.conv_pre = nn.Conv1d(h.num_mels, h.upsample_initial_channel, 7, 1, padding=3)
        self.ups = nn.ModuleList()
        for i, (u, k) in enumerate(zip(h.upsample_rates, h.upsample_kernel_sizes)):
            self.ups.append(nn.ConvTranspose1d(h.upsample_initial_channel // (2 ** i),
                                               h.upsample_initial_channel // (2 ** (i + 1)),
                                               k, u, padding=(k - u) // 2))

    def forward(self, x):
        x = self.conv_pre(x)
        for up in self.ups:
            x = up(torch.relu(x))
        return x


h = AttrDict({"num_mels": 80}, upsample_rates=[4, 2], upsample_kernel_sizes=[8, 4],
             upsample_initial_channel=32)
print(Generator(h)(torch.randn(2, 64, 16)).shape)
