"""A padded image used as if it kept its size: padding by 1 on every side makes (5, 6) of (3, 4)."""
import numpy as np

image = np.arange(12.0).reshape(3, 4)
padded = np.pad(image, 1)
projection = np.ones((4, 2))
features = padded @ projection
