# torch's runtime services around a model (in-place init, TorchScript markers, device and
# accelerator queries, dtypes) decide no shape: the mismatch below stays visible through them.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)
        nn.init.zeros_(self.fc.bias)
        self.w = nn.init.normal_(torch.empty(3, 4))

    @torch.jit.ignore
    def head(self, x):
        return self.fc(x)

    def forward(self, x):
        if torch.jit.is_scripting():
            x = x.flatten()
        else:
            x = self.head(x)
        return x @ self.w


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
use_accel = torch.accelerator.is_available()
x = torch.zeros(2, 8, dtype=torch.float32).to(device)
y = Net()(x)
