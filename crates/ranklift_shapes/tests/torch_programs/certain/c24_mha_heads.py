# A head count that does not divide the model width.
import torch.nn as nn

layer = nn.TransformerEncoderLayer(d_model=100, nhead=8)
