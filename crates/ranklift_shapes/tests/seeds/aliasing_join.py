from somelib import either

if either:
    a = []
    b = a

else:
    a = []
    b = []
