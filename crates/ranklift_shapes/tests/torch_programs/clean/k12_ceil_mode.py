# ceil_mode pooling of odd sizes keeps the border.
import torch
import torch.nn as nn

pool = nn.MaxPool2d(3, stride=2, ceil_mode=True)
x = pool(torch.randn(1, 4, 7, 7))
fc = nn.Linear(4 * 3 * 3, 2)
print(fc(x.flatten(1)).shape)
