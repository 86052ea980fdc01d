"""Assignment through an index list (advanced indexing) has NumPy's "shape mismatch" wording;
the selected rows get one column too many here."""
import numpy as np

spectrum = np.zeros((200, 3), dtype=complex)
first = np.ones((3, 3))
spectrum[[0, 1, 2], :] = first
spectrum[range(3)] = first * 2
spectrum[[5, 6, 7], :] = np.ones((3, 4))
