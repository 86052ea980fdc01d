# An orthonormal frame per point of a curve, from its tangents and a fixed up vector with
# `np.cross`; the frames are stacked and applied to the points. Planar vectors give the
# signed area of each pair.
import numpy as np

t = np.linspace(0, 1, 6)
points = np.stack([np.cos(t), np.sin(t), t], axis=1)
tangents = np.gradient(points, axis=0)
normals = np.cross(tangents, np.array([0.0, 0.0, 1.0]))
binormals = np.cross(tangents, normals)
frames = np.stack([tangents, normals, binormals], axis=1)
areas = np.cross(points[:, :2], np.array([1.0, 0.0]))
print(frames.shape, areas.shape, np.einsum("nij,nj->ni", frames, points).shape)
print((binormals + points).shape)
