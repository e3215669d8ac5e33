# BLIND-SET: 53
# EXERCISE: ex4
# WHAT: time_steps builds `StepLoop(step_fn)` (n_steps field left at its default 100) and calls `loop.run(params, opt_state, x, y, n_steps)`, but `run` loops over `range(self.n_steps)`, so the argument is shadowed by the attribute: step_fn is always called 100 times after the warm-up, whatever n_steps is (n_steps=5 gives 100 timed calls, and jit_speedup(n_steps) times 100 steps).
# SHOULD-SAY: time_steps ignores n_steps and always runs 100 steps: `run` reads `self.n_steps` (the dataclass default) instead of its `n_steps` argument. Use the argument, or construct `StepLoop(step_fn, n_steps)`.
"""Exercise 4: how much does jax.jit buy? (timing with small classes)"""

from dataclasses import dataclass
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


@dataclass
class StepLoop:
    step_fn: object
    n_steps: int = 100

    def warm_up(self, params, opt_state, x, y):
        return jax.block_until_ready(self.step_fn(params, opt_state, x, y))

    def run(self, params, opt_state, x, y, n_steps):
        params, opt_state, loss = self.warm_up(params, opt_state, x, y)
        start = time.perf_counter()
        for _ in range(self.n_steps):
            params, opt_state, loss = self.step_fn(params, opt_state, x, y)
        jax.block_until_ready((params, opt_state, loss))
        return time.perf_counter() - start


@dataclass
class Comparison:
    seed: int = 0
    batch_size: int = 128

    def setup(self):
        kp, kx, ky = jax.random.split(jax.random.PRNGKey(self.seed), 3)
        params = init_params(kp)
        return params, jax.random.normal(kx, (self.batch_size, 784)), jax.random.randint(ky, (self.batch_size,), 0, 10)

    def __call__(self, n_steps):
        params, x, y = self.setup()
        eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
        jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
        return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    return StepLoop(step_fn).run(params, opt_state, x, y, n_steps)


def jit_speedup(n_steps=100):
    return Comparison()(n_steps)
