# BLIND-SET: 32
# EXERCISE: ex4
# WHAT: jit_speedup records each Benchmark's seconds in a class-level registry keyed by step_fn.__name__; jax.jit keeps the wrapped function's name, so the jitted run overwrites the eager entry under "train_step". eager_s and jit_s are both the jitted time and speedup is exactly 1.0 (jit is not faster).
# SHOULD-SAY: jit_speedup reports the jitted time twice (speedup 1.0): Benchmark.results is keyed by the step function's __name__, and jax.jit(train_step) is also named "train_step", so the second timing replaces the first. Key the results by an explicit label ("eager", "jit"), or just keep the two floats that time_steps returns.
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

import time

import jax
import jax.numpy as jnp
import optax


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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    params, opt_state, loss = jax.block_until_ready(step_fn(params, opt_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, loss = step_fn(params, opt_state, x, y)
    jax.block_until_ready((params, opt_state, loss))
    return time.perf_counter() - start


class Benchmark:
    """Times one step function and files the result in a shared registry."""

    results = {}

    def __init__(self, step_fn):
        self.step_fn = step_fn
        self.name = step_fn.__name__

    def run(self, params, x, y, n_steps):
        seconds = time_steps(self.step_fn, params, optimizer.init(params), x, y, n_steps)
        Benchmark.results[self.name] = seconds
        return self

    @property
    def seconds(self):
        return Benchmark.results[self.name]


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager = Benchmark(train_step).run(params, x, y, n_steps)
    jitted = Benchmark(jax.jit(train_step)).run(params, x, y, n_steps)
    eager_s, jit_s = eager.seconds, jitted.seconds
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
