# BLIND-SET: 53
# EXERCISE: ex4
# WHAT: `StepBenchmark.warm_up` checks `self.warmed_up` but sets `StepBenchmark.warmed_up = True` on the class, so only the first time_steps call in the process does a warm-up; every later call (including the jitted run inside jit_speedup, and any time_steps call after the first) makes no warm-up call, so compilation is timed and step_fn is called n_steps times in total instead of n_steps + 1.
# SHOULD-SAY: time_steps only warms up on its first call: the warmed-up flag is set on the class and shared by every StepBenchmark, so later calls (e.g. the jitted run) time compilation. Warm up on every call (or set `self.warmed_up` on the instance).
"""Exercise 4: how much does jax.jit buy? (timing with small classes)"""
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


class StepBenchmark:
    warmed_up = False

    def __init__(self, step_fn, n_steps=100):
        self.step_fn = step_fn
        self.n_steps = n_steps

    def warm_up(self, params, opt_state, x, y):
        if not self.warmed_up:
            params, opt_state, _ = jax.block_until_ready(self.step_fn(params, opt_state, x, y))
            StepBenchmark.warmed_up = True
        return params, opt_state

    def time(self, params, opt_state, x, y):
        params, opt_state = self.warm_up(params, opt_state, x, y)
        start = time.perf_counter()
        loss = None
        for _ in range(self.n_steps):
            params, opt_state, loss = self.step_fn(params, opt_state, x, y)
        jax.block_until_ready((params, opt_state, loss))
        return time.perf_counter() - start


class LessonData:
    def __init__(self, seed=0, batch=128):
        kp, kx, ky = jax.random.split(jax.random.PRNGKey(seed), 3)
        self.params = init_params(kp)
        self.x = jax.random.normal(kx, (batch, 784))
        self.y = jax.random.randint(ky, (batch,), 0, 10)

    @property
    def fresh_state(self):
        return optimizer.init(self.params)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    return StepBenchmark(step_fn, n_steps).time(params, opt_state, x, y)


def jit_speedup(n_steps=100):
    data = LessonData()
    eager_s = time_steps(train_step, data.params, data.fresh_state, data.x, data.y, n_steps)
    jit_s = time_steps(jax.jit(train_step), data.params, data.fresh_state, data.x, data.y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
