def f():
    return 32 * 1024

x = 1
