# Layer sizes kept in a config dict: the second layer's input is not the first's output.
import numpy as np

config = {"sizes": [(8, 16), (32, 4)], "batch": 10}
x = np.ones((config["batch"], 8))
for n_in, n_out in config["sizes"]:
    w = np.ones((n_in, n_out))
    x = x @ w
