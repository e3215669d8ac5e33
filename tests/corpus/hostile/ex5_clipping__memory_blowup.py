"""Allocates memory without bound when make_optimizer (or make_train_step) is first called.

The address-space limit stops it with a MemoryError, which the probe records; the hoard is then let go (and
later calls raise at once), so what the run does next does not depend on where JAX's own next allocation
would have failed (a crash by SIGSEGV, SIGABRT or a MemoryError, by timing). The exercise is an error and
the bystander is graded."""
import optax

EXPECT = {"status": "error", "message": "MemoryError"}

_hoard = []


_exhausted = []


def _exhaust():
    if _exhausted:
        raise MemoryError("the memory ran out on an earlier call")
    try:
        while True:
            _hoard.append(bytearray(256 << 20))
    finally:
        _hoard.clear()
        _exhausted.append(True)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    _exhaust()


def make_train_step(optimizer):
    _exhaust()
