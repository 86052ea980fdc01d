"""A block runs its forward through a custom autograd Function (gradient checkpointing, as
diffusion UNets do), which stores what it needs on its context."""

import torch
from torch import nn


class CheckpointFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, run_function, *args):
        ctx.run_function = run_function
        ctx.save_for_backward(*args)
        with torch.no_grad():
            return ctx.run_function(*args)

    @staticmethod
    def backward(ctx, *grads):
        return (None,) + grads


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(64, 64)

    def _forward(self, x):
        return self.proj(x)

    def forward(self, x):
        return CheckpointFunction.apply(self._forward, x)


print(Block()(torch.randn(2, 64)).shape)
