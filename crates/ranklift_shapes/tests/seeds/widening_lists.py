from somewhere import something

a = []
a.append(3)
i = a[0]
while i < 10:
    if something:
        a.append(i)

    else:
        a.append(i+1)
