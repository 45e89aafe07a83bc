import os

BLOCK = 32
NUM_WARPS = 8