# Adaptive pooling makes the head independent of the input's size.
import torch
import torch.nn as nn

net = nn.Sequential(
    nn.Conv2d(3, 32, 3),
    nn.AdaptiveAvgPool2d((1, 1)),
    nn.Flatten(),
    nn.Linear(32, 10),
)
for size in [17, 64, 100]:
    print(net(torch.randn(1, 3, size, size)).shape)
