# Block parameters in a named tuple (defaults set through `__new__`, copied with `_replace`),
# as TensorFlow-derived model code keeps them: the head is built for the block's input
# channels, not its output channels.
import collections

import torch
import torch.nn as nn

BlockArgs = collections.namedtuple("BlockArgs", ["kernel_size", "input_filters", "output_filters"])
BlockArgs.__new__.__defaults__ = (None,) * len(BlockArgs._fields)


class Block(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.conv = nn.Conv2d(args.input_filters, args.output_filters, args.kernel_size, padding=1)

    def forward(self, x):
        return self.conv(x)


args = BlockArgs(kernel_size=3, input_filters=16)._replace(output_filters=24)
k, cin, cout = args
block = Block(args)
head = nn.Conv2d(cin, 8, 1)
print(head(block(torch.randn(2, 16, 8, 8))).shape)
