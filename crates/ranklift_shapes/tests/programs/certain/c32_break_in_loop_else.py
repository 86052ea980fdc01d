import numpy as np

# A `break` in an inner loop's `else:` leaves the *outer* loop, carrying the new `a` with it.
a = np.zeros((2, 3))
for i in range(2):
    for j in range(1):
        pass
    else:
        a = np.zeros((4, 4))
        break
b = a + np.ones((2, 3))
