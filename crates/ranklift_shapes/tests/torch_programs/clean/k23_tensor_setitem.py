# Writes that expand: a row into every row, leading ones dropped, a scalar, a column, a mask.
import torch

x = torch.zeros(4, 7, 50)
x[:, 0, :] = torch.ones(50)
x[:2, 1, :] = torch.ones(1, 2, 50)
x[..., 3] = 1.0
x[:, :, :1] = torch.ones(4, 7, 1)
x[1] = torch.ones(7, 1)
x[x > 0] = 0.5
x[:, 2:5] = torch.randn(3, 50)
buf = torch.zeros(3, 5)
for t in range(5):
    buf[:, t] = torch.randn(3)
print(x.sum().item() > 0, buf.shape)
