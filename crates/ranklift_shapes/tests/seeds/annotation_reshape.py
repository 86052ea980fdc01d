import numpy as np
from mypreciouslib import amatrix
from pytropos.hints.numpy import NdArray

mat: NdArray[1,12,6,7] = np.array(amatrix)
newmat = (mat + 12).reshape((12*6, -1)) # newmat has shape (12*6,7)
newmat = newmat.dot(np.ones((8, 21))) # Error! Matrix multiplication, 7!=8
