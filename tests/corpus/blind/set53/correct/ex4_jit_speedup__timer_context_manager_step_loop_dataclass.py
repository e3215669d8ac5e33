# BLIND-SET: 53
# EXERCISE: ex4
# WHAT: Correct. A `Timer` context manager whose `__exit__` first blocks on the result registered with `wait_for` and only then reads time.perf_counter; a `StepLoop` dataclass does one blocked warm-up call and threads (params, opt_state) through exactly n_steps timed calls; a `LessonBenchmark` dataclass builds the inputs with explicit keys and times train_step eagerly and jitted from fresh optimizer states.
# SHOULD-SAY: Nothing to fix: every ex4 check passes.
"""Exercise 4: how much does jax.jit buy? (timing with small classes)"""

import dataclasses
import time

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model, loss, optimizer and training step -----------


def init_params(key, sizes=(784, 256, 128, 10)):
    """He-initialised weights and zero biases for an MLP of the given widths."""
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


optimizer = optax.adam(1e-3)


def train_step(params, opt_state, x, y):
    """The lesson's training step, not yet jitted."""
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss

# --- Your code ----------------------------------------------------------------


class Timer:
    """Context manager: waits for a registered result, then stops the clock."""

    def __init__(self, clock=None):
        self.clock = clock if clock is not None else time.perf_counter
        self.elapsed = None
        self._pending = None

    def wait_for(self, tree):
        self._pending = tree

    def __enter__(self):
        self._pending = None
        self._start = self.clock()
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc_type is None and self._pending is not None:
            jax.block_until_ready(self._pending)
        self.elapsed = self.clock() - self._start
        return False


@dataclasses.dataclass
class StepLoop:
    step_fn: object
    n_steps: int = 100

    def warm_up(self, params, opt_state, x, y):
        return jax.block_until_ready(self.step_fn(params, opt_state, x, y))

    def timed(self, params, opt_state, x, y):
        params, opt_state, _ = self.warm_up(params, opt_state, x, y)
        with Timer() as timer:
            loss = None
            for _ in range(self.n_steps):
                params, opt_state, loss = self.step_fn(params, opt_state, x, y)
            timer.wait_for((params, opt_state, loss))
        return float(timer.elapsed)


@dataclasses.dataclass(frozen=True)
class LessonBenchmark:
    seed: int = 0
    batch_size: int = 128

    def inputs(self):
        k_params, k_x, k_y = jax.random.split(jax.random.PRNGKey(self.seed), 3)
        params = init_params(k_params)
        x = jax.random.normal(k_x, (self.batch_size, 784))
        y = jax.random.randint(k_y, (self.batch_size,), 0, 10)
        return params, x, y

    def run(self, n_steps):
        params, x, y = self.inputs()
        results = {}
        for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
            results[label] = time_steps(fn, params, optimizer.init(params), x, y, n_steps)
        results["speedup"] = results["eager_s"] / results["jit_s"]
        return results


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    return StepLoop(step_fn, n_steps).timed(params, opt_state, x, y)


def jit_speedup(n_steps=100):
    return LessonBenchmark().run(n_steps)
