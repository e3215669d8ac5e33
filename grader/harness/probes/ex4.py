"""Exercise 4 observations: the timing harness against steps with known timing behaviour.

The steps here are instrumented stand-ins, not real training: one is slow on
its first call only (as compilation is), one returns immediately and finishes
its work later (as JAX's asynchronous dispatch does), and all count their calls
and the state they receive. That makes each property of a correct timer
visible without depending on how fast this machine is.
"""

import time

import numpy as np

from grader.protocol import (EX4_ASYNC_DELAY, EX4_COMPILE_DELAY, EX4_COUNT_STEPS, EX4_N_STEPS,
                             EX4_SPEEDUP_STEPS)


class _Queue:
    """A pretend device: work queued by each call finishes ``delay`` s after the previous."""

    def __init__(self, delay):
        self.delay, self.done_at, self.waits = delay, 0.0, 0

    def enqueue(self):
        self.done_at = max(self.done_at, time.perf_counter()) + self.delay

    def wait(self):
        self.waits += 1
        remaining = self.done_at - time.perf_counter()
        if remaining > 0:
            time.sleep(remaining)


class Pending:
    """A result that is only ready once the queue has drained, like a jax.Array."""

    def __init__(self, queue, value):
        self._queue, self.value = queue, value

    def block_until_ready(self):
        self._queue.wait()
        return self

    def __array__(self, dtype=None, copy=None):
        self._queue.wait()
        return np.asarray(self.value, dtype=dtype)

    def __float__(self):
        self._queue.wait()
        return float(self.value)

    def __int__(self):
        self._queue.wait()
        return int(self.value)

    def item(self):
        return float(self)


def make_step(first_call_delay=0.0, async_delay=0.0):
    """A step that threads a counter through params and opt_state, with a log of its calls."""
    queue = _Queue(async_delay)
    log = {"calls": 0, "params_seen": [], "state_seen": []}

    def step(params, opt_state, x, y):
        log["calls"] += 1
        log["params_seen"].append(params["count"].value)
        log["state_seen"].append(opt_state.value)
        if log["calls"] == 1 and first_call_delay:
            time.sleep(first_call_delay)
        queue.enqueue()
        count = params["count"].value + 1
        return {"count": Pending(queue, count)}, Pending(queue, count), Pending(queue, 0.5)

    def initial():
        return {"count": Pending(queue, 0)}, Pending(queue, 0)

    return step, initial, log, queue


def _time(m, first_call_delay, async_delay, n_steps):
    step, initial, log, queue = make_step(first_call_delay, async_delay)
    params, opt_state = initial()
    start = time.perf_counter()
    seconds = m.time_steps(step, params, opt_state, np.zeros((4, 784), np.float32), np.zeros(4, np.int32), n_steps)
    wall = time.perf_counter() - start
    return {
        "returned_type": type(seconds).__name__,
        "is_float": isinstance(seconds, float),
        "seconds": float(seconds),
        "wall": wall,
        "calls": log["calls"],
        "params_seen": log["params_seen"],
        "state_seen": log["state_seen"],
        "waits": queue.waits,
        "n_steps": n_steps,
        "compile_delay": first_call_delay,
        "async_delay": async_delay,
    }


def _speedup(m):
    result = m.jit_speedup(EX4_SPEEDUP_STEPS)
    if not isinstance(result, dict):
        return {"type": type(result).__name__}
    return {
        "type": "dict",
        "keys": sorted(str(k) for k in result),
        **{str(k): float(v) for k, v in result.items() if np.size(v) == 1},
    }


def probe(rec, modules, inputs, options):
    m = modules["ex4_jit_speedup"]
    rec.record("time/compile", lambda: _time(m, EX4_COMPILE_DELAY, 0.0, EX4_N_STEPS))
    rec.record("time/async", lambda: _time(m, 0.0, EX4_ASYNC_DELAY, EX4_N_STEPS))
    rec.record("time/count", lambda: _time(m, 0.0, 0.0, EX4_COUNT_STEPS))
    rec.record("speedup", lambda: _speedup(m))
