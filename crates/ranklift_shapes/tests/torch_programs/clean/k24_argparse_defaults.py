# The command line's defaults through groups, set_defaults, a string default converted by its
# type, store_true/store_false, an attribute set after parsing and parse_known_args.
import argparse

import torch
import torch.nn as nn

parser = argparse.ArgumentParser(description="toy")
model_args = parser.add_argument_group("model")
model_args.add_argument("--hidden-size", "-H", type=int, default="48")
model_args.add_argument("--layers", dest="n_layers", type=int, default=2)
parser.add_argument("--no-bias", dest="bias", action="store_false")
parser.add_argument("--verbose", action="store_true")
parser.add_argument("--in_features", type=int, default=10)
parser.set_defaults(batch=8)
args, _ = parser.parse_known_args()
args.out_features = 3

layers = [nn.Linear(args.in_features, args.hidden_size, bias=args.bias), nn.ReLU()]
for _ in range(args.n_layers - 1):
    layers += [nn.Linear(args.hidden_size, args.hidden_size), nn.ReLU()]
layers.append(nn.Linear(args.hidden_size, args.out_features))
net = nn.Sequential(*layers)
x = torch.randn(args.batch, args.in_features)
y = net(x)
assert y.shape == (8, 3)
if args.verbose:
    print(y.shape)
