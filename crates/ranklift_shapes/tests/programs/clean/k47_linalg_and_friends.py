"""np.linalg decompositions, repeat/tile, broadcasting helpers, sorting, and matrix elements
used as scalars: the shapes NumPy gives, used correctly."""
import numpy as np

rng = np.random.default_rng(0)
A = rng.normal(size=(6, 3))
u, s, vh = np.linalg.svd(A, full_matrices=False)
assert (u @ np.diag(s) @ vh).shape == (6, 3)
U, S, VH = np.linalg.svd(A)
assert U.shape == (6, 6) and VH.shape == (3, 3)
q, r = np.linalg.qr(A)
assert (q @ r).shape == (6, 3)
w, v = np.linalg.eigh(A.T @ A)
assert (v @ np.diag(w) @ v.T).shape == (3, 3)
x, res, rank, sv = np.linalg.lstsq(A, np.ones(6), rcond=None)
assert x.shape == (3,) and sv.shape == (3,)
assert np.linalg.solve(A.T @ A, A.T @ np.ones(6)).shape == (3,)
assert np.linalg.pinv(A).shape == (3, 6)
assert np.linalg.inv(np.eye(3) + A.T @ A).shape == (3, 3)
d = np.linalg.det(A.T @ A) * np.ones(2)
assert d.shape == (2,)

t = np.sort(rng.random(40)) * 10
y, dy = np.broadcast_arrays(np.sin(t), 0.1)
t, y, dy = (a[:, np.newaxis] for a in (t, y, dy))
assert np.dot(dy.T, t * y).shape == (1, 1)
assert np.broadcast_to(np.ones((3, 1)), (3, 4)).shape == (3, 4)
assert np.repeat(np.ones((2, 3)), 2, axis=0).shape == (4, 3)
assert np.tile(np.ones(3), (2, 2)).shape == (2, 6)
assert np.cov(rng.normal(size=(3, 10))).shape == (3, 3)
assert np.diff(np.ones((3, 4)), axis=0).shape == (2, 4)
assert np.column_stack((np.ones(3), np.ones((3, 2)))).shape == (3, 3)
assert np.kron(np.ones((2, 3)), np.ones((4, 5))).shape == (8, 15)
xx, yy = np.meshgrid(np.arange(4), np.arange(3))
assert xx.shape == (3, 4)
counts = np.bincount(np.array([0, 1, 1, 3]))
assert counts[np.unique(np.array([0, 1, 3]))].shape == (3,)

m = np.arange(9, dtype=float).reshape(3, 3) + 1.0
c = m[1, 0] / m[0, 0]
m[1, 1] = m[1, 1] - c * m[0, 1]
k = np.arange(6).reshape(2, 3)
assert list(range(k[1, 2])) == [0, 1, 2, 3, 4]
assert np.zeros((k[0, 2], 2)).shape == (2, 2)
if "a" in ["a", "b"] and 3 not in (1, 2):
    ok = True
assert ok

# map over a known tuple, FFTs, append, index arrays.
t, y = map(np.asarray, ([0.0, 1.0, 2.0], [1.0, 2.0, 3.0]))
assert np.dot(t, y) == 8.0
sig = np.cos(np.linspace(0, 1, 64))
assert np.fft.fftshift(np.fft.fft(sig)).shape == (64,)
assert np.fft.rfft(sig).shape == (33,)
assert np.fft.fftfreq(64).shape == (64,)
assert np.append(sig, sig).shape == (128,)
assert np.append(np.ones((2, 3)), np.ones((1, 3)), axis=0).shape == (3, 3)
evals, evecs = np.linalg.eig(np.cov(rng.normal(size=(30, 4)), rowvar=0))
order = np.argsort(evals)[::-1]
assert (rng.normal(size=(30, 4)) @ evecs[:, order]).shape == (30, 4)
spectrum = np.zeros((8, 3), dtype=complex)
spectrum[np.arange(4), :] = np.ones((4, 3))

# Padding and einsum with an explicit output.
assert np.pad(np.ones((3, 4)), 1).shape == (5, 6)
assert np.pad(np.ones((3, 4)), ((1, 2), (0, 3))).shape == (6, 7)
assert np.pad(np.ones((3, 4)), (1, 2)).shape == (6, 7)
assert (np.einsum("ij,jk->ik", np.ones((2, 3)), np.ones((3, 5))) @ np.ones(5)).shape == (2,)
assert np.einsum("ij->ji", np.ones((2, 3))).shape == (3, 2)
