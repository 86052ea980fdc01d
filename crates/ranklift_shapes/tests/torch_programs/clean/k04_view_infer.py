# view(batch, -1) infers the width the next layer expects.
import torch
import torch.nn as nn

conv = nn.Conv2d(3, 6, 5)
fc = nn.Linear(6 * 12 * 12, 4)
x = torch.max_pool2d(conv(torch.randn(5, 3, 28, 28)), 2)
print(fc(x.view(x.size(0), -1)).shape)
