import numpy as np
x = np.linspace(0, 1, 11)
y = x ** 2 + 2 ** x
z = np.outer(x, y) @ np.ones(11)
k = 2 ** 10 // 3 % 7
