# A convolutional stack whose third convolution expects the channels of the first.
import torch
from torch import nn

features = nn.Sequential(
    nn.Conv2d(3, 32, kernel_size=3, padding=1),
    nn.ReLU(inplace=True),
    nn.Conv2d(32, 64, kernel_size=3, padding=1),
    nn.ReLU(inplace=True),
    nn.MaxPool2d(2),
    nn.Conv2d(32, 128, kernel_size=3, padding=1),
)
out = features(torch.randn(4, 3, 32, 32))
