# A row written into a preallocated array inside a loop too long to unroll: the loop runs on
# a summary of its index (0 <= i % period < period), and the row's width is wrong on every
# iteration, so the first one raises.
import numpy as np


def fill(samples, period):
    table = np.zeros((period, 3))
    for i in range(samples):
        phase = np.linspace(0.0, 1.0, 4) * i
        table[i % period] = phase
    return table


fill(280, 5)
