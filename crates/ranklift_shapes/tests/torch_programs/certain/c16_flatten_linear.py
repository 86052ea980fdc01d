# A classifier head sized for 28x28 inputs, given 32x32 ones.
import torch
import torch.nn as nn

head = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10))
logits = head(torch.randn(16, 1, 32, 32))
