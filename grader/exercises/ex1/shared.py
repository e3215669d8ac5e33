"""What ex1's probe (child side) and checks (judging side) both read. Standard library only."""

#: Dropout rates at which dropout is observed (observation ``dropout/rate<rate>`` each).
RATES = (0.1, 0.25, 0.5, 0.8)
#: A small rate, observed on x tiled to SMALL_RATE_TILES (about a million elements): a coin that cannot resolve it
#: (a low-precision uniform, a rate rounded to a whole percentage) zeroes none (observation ``dropout/small_rate``).
SMALL_RATE = 0.002
SMALL_RATE_TILES = (16, 2)


def other_shapes(x):
    """The inputs dropout is also observed on (observation ``dropout/<name>`` each), made from the 2-D x: a
    vector, a batch of sequences and a batch of one row. Works on numpy and jax arrays alike."""
    return {"rank1": x[0], "rank3": x.reshape(8, -1, x.shape[-1]), "one_row": x[:1]}
