import numpy as np
from pytropos.hints.numpy import NdArray
from something import Top

a: NdArray[3, float] = np.arange(Top).reshape((3, Top))
