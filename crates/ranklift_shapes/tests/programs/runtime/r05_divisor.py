# inputs: 4 | 0
import sys
batches = int(sys.argv[1])
per_batch = 128 // batches
