from numpy import zeros

# Both arrays are 2-D
g = zeros((2,3)).dot([[1,3]])
h = zeros((12,3)).dot([[1],[2],[3]])
