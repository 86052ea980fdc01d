# padding="same" keeps the size; strided convolutions halve it; the head follows.
import torch
import torch.nn as nn

net = nn.Sequential(
    nn.Conv2d(1, 8, 5, padding="same"),
    nn.Conv2d(8, 16, 3, stride=2, padding=1),
    nn.Conv2d(16, 16, 3, stride=2, padding=1),
    nn.Flatten(),
    nn.Linear(16 * 7 * 7, 10),
)
print(net(torch.randn(3, 1, 28, 28)).shape)
