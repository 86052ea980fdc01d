import horovod.tensorflow as hvd


def log(loss):
    if hvd.rank() == 0:
        print(float(loss))
