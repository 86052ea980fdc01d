# Writing through a mask over every axis takes one value per selected entry (a 0-d or 1-d
# value); a 2-d patch is NumPy's TypeError, whatever the mask holds.
import numpy as np

image = np.zeros((6, 8))
image[2:4, 3:5] = 1.0
bright = image > 0.5
rows, cols = 2, 2
image[bright] = np.full((rows, cols), 0.9)
