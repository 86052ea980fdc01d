# Blocks decoded from strings (`"r1_k3_s11_i32_o16"`, each option's digits split off with
# `re.split`), as EfficientNet-style code builds its stages; the classifier takes the last
# stage's output channels.
import re

import torch
import torch.nn as nn

BLOCKS = ["k3_s11_i8_o16", "k3_s22_i16_o24", "k5_s22_i24_o40_noskip"]


def decode(block_string):
    options = {}
    for op in block_string.split("_"):
        splits = re.split(r"(\d.*)", op)
        if len(splits) >= 2:
            key, value = splits[:2]
            options[key] = value
    return dict(kernel=int(options["k"]), stride=int(options["s"][0]),
                cin=int(options["i"]), cout=int(options["o"]),
                skip="noskip" not in block_string)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        blocks = [decode(s) for s in BLOCKS]
        self.stages = nn.Sequential(*[
            nn.Conv2d(b["cin"], b["cout"], b["kernel"], stride=b["stride"], padding=b["kernel"] // 2)
            for b in blocks])
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(blocks[-1]["cout"], 10)

    def forward(self, x):
        return self.fc(self.pool(self.stages(x)).flatten(1))


print(Net()(torch.randn(2, 8, 16, 16)).shape)
