# Channels-last conversion written for images, applied to a sequence batch.
import torch

seq = torch.randn(4, 50, 128)
channels_first = seq.transpose(1, 3)
