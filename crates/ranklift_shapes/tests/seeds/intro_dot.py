import numpy as np
x = np.array( [[1,2,3], [4,5,6]] ) # shape (2,3)
y = np.array( [[7], [0], [2], [1]] ) # shape (4,1)
z = np.dot(x, y) # trying to apply dot product
