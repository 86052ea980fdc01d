# A callback handed to code the analysis does not run (here a thread; in the wild an RL
# driver's `observers=[save_frames]`) fills a module-level list: after the call the list is not
# known to be empty, so `frames[0]` is no IndexError (handson-ml2, 18_reinforcement_learning).
import threading

import numpy as np

frames = []


def save_frame(k):
    frames.append(np.zeros((2, k)))


worker = threading.Thread(target=save_frame, args=(3,))
worker.start()
worker.join()
first = frames[0]
print(first.shape)
