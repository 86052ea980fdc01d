"""A vocoder's discriminator builds each convolution through a weight reparametrisation
(`weight_norm`, or `spectral_norm` for the first scale, and the parametrisation spelling);
its score has one value per remaining time step."""

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.utils import spectral_norm, weight_norm
from torch.nn.utils.parametrizations import weight_norm as param_weight_norm


class ScaleDiscriminator(nn.Module):
    def __init__(self, use_spectral_norm=False):
        super().__init__()
        norm_f = weight_norm if use_spectral_norm == False else spectral_norm  # noqa: E712
        self.convs = nn.ModuleList([
            norm_f(nn.Conv1d(1, 16, 15, 1, padding=7)),
            norm_f(nn.Conv1d(16, 32, 41, 2, groups=4, padding=20)),
            norm_f(nn.Conv1d(32, 64, 41, 2, groups=16, padding=20)),
        ])
        self.conv_post = param_weight_norm(nn.Conv1d(64, 1, 3, 1, padding=1))

    def forward(self, x):
        for conv in self.convs:
            x = F.leaky_relu(conv(x), 0.1)
        return torch.flatten(self.conv_post(x), 1, -1)


score = ScaleDiscriminator(use_spectral_norm=True)(torch.randn(2, 1, 256))
print(score.shape)
print(nn.Linear(64, 1)(score).shape)
