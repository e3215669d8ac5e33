"""Allocates memory without bound when make_optimizer is called.

The hoard stays allocated: the probe records the MemoryError, or the process dies when its next allocation
(JAX's, in a thread) fails; either way the exercise is an error and the bystander is graded."""
import optax

EXPECT = {"status": "error", "message": ["MemoryError", "ran out of memory"]}

_hoard = []


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    while True:
        _hoard.append(bytearray(256 << 20))


def make_train_step(optimizer):
    while True:
        _hoard.append(bytearray(256 << 20))
