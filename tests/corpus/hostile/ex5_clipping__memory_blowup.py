"""Allocates memory without bound when make_optimizer is called."""
import optax

EXPECT = {"status": "error", "message": "MemoryError"}

_hoard = []


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    while True:
        _hoard.append(bytearray(256 << 20))


def make_train_step(optimizer):
    while True:
        _hoard.append(bytearray(256 << 20))
