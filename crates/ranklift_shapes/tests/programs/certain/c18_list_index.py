sizes = [784, 128, 10]
first, second = sizes[0], sizes[1]
extra = sizes[3]
