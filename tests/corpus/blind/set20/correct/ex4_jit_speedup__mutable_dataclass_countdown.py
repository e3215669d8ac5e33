# BLIND-SET: 20
# EXERCISE: ex4
# WHAT: correct: params/opt_state/loss live in a mutable dataclass whose advance() threads them through step_fn; one blocked warm-up, then a countdown while-loop timed with time.perf_counter and a final block_until_ready on a dict of all three; jit_speedup builds its batch with fold_in keys, uniform inputs and categorical labels, and fills the dict in a comprehension
# SHOULD-SAY: full marks: one warm-up call before the clock, exactly n_steps timed calls with params and optimizer state threaded from each call into the next, the clock stops only after block_until_ready on the results, and jit_speedup returns positive floats with speedup == eager_s / jit_s

"""Exercise 4: a timing harness built on a small mutable run-state object."""

import dataclasses
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


@dataclasses.dataclass
class _Run:
    """The state threaded from one training step into the next."""

    params: object
    opt_state: object
    loss: object = None

    def advance(self, step_fn, x, y):
        self.params, self.opt_state, self.loss = step_fn(self.params, self.opt_state, x, y)

    def wait(self):
        jax.block_until_ready({"params": self.params, "opt_state": self.opt_state, "loss": self.loss})


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` threaded calls of `step_fn`, compilation excluded."""
    run = _Run(params, opt_state)
    run.advance(step_fn, x, y)  # warm-up: traces and compiles
    run.wait()
    remaining = n_steps
    started = time.perf_counter()
    while remaining:
        run.advance(step_fn, x, y)
        remaining -= 1
    run.wait()
    return float(time.perf_counter() - started)


def jit_speedup(n_steps=100):
    """Eager vs jitted `train_step`, each from a fresh optimizer state."""
    root = jax.random.PRNGKey(42)
    params = init_params(jax.random.fold_in(root, 0))
    x = jax.random.uniform(jax.random.fold_in(root, 1), (128, 784))
    y = jax.random.categorical(jax.random.fold_in(root, 2), jnp.zeros((128, 10))).astype(jnp.int32)
    timings = {
        label: time_steps(fn, params, optimizer.init(params), x, y, n_steps)
        for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step)))
    }
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
