# A SegNet-style encoder: each stage pools with `return_indices=True` and keeps the indices
# and the size before pooling for the decoder's `MaxUnpool2d`. The decoder's convolution
# takes the encoder's channels.
import torch
import torch.nn as nn


class Down(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.pool = nn.MaxPool2d(2, 2, return_indices=True)

    def forward(self, x):
        x = self.conv(x)
        size = x.size()
        x, indices = self.pool(x)
        return x, indices, size


down = Down(3, 8)
unpool = nn.MaxUnpool2d(2, 2)
decode = nn.Conv2d(8, 4, 3, padding=1)
x, indices, size = down(torch.randn(2, 3, 16, 16))
y, idx = nn.functional.max_pool2d(torch.randn(1, 4, 8, 8), 2, return_indices=True)
print(y.shape, idx.shape)
print(decode(unpool(x, indices, output_size=size)).shape)
