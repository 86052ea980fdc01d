steps = 10
warmup = 0
ratio = steps / warmup
