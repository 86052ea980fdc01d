# Masks select a number of entries known only at run time: statistics over them, and a row
# mask over a 2-d array, keep the shapes that follow right.
import numpy as np

data = np.arange(24.0).reshape(6, 4)
outliers = np.abs(data - data.mean()) > 2 * data.std()
inliers = ~outliers
centred = data[inliers] - data[inliers].mean()
rows = data[:, 0] > 5
picked = data[rows] @ np.ones((4, 2))
data[rows] = np.zeros(4)
data[inliers] = centred
print(centred.shape, picked.shape)
