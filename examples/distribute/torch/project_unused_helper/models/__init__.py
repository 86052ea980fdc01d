from .tiny import *
