# A mask built from one array selects from another: the masked rows keep their width, and
# a mask whose length is not the other array's is NumPy's IndexError.
import numpy as np


def clean_spectrum(flux, wave):
    good = np.isfinite(flux) & (flux > 0)
    kept = flux[good]
    scale = kept.mean()
    return wave[good] * scale


flux = np.linspace(1.0, 2.0, 40)
wave = np.linspace(400.0, 700.0, 39)
clean_spectrum(flux, wave)
