count = 3
label = "epochs: " + count
