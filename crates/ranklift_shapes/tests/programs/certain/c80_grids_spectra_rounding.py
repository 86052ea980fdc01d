# Grids written as indexing, spectra, complex scalars and builtin round() keep shapes known:
# the mismatch at the end is found through all of them.
import numpy as np

img = np.zeros((8, 10))
yy, xx = np.mgrid[0:8, 0:10]
col, row = np.ogrid[0:8, 0:10]
spectrum = np.fft.fft2(img * (yy + xx) + col * row)
half = np.fft.rfft2(img)
phase = np.exp(1j * np.angle(spectrum))
k = round(2.6)
kernel = np.ones((k, half.shape[1]))
out = phase @ kernel
