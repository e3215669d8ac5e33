# BLIND-SET: 32
# EXERCISE: ex4
# WHAT: time_steps threads params and state through a plain @dataclass Carry and calls jax.block_until_ready(carry) before stopping the clock; a dataclass that is not registered as a pytree is a single opaque leaf with no block_until_ready method, so JAX silently skips it and the clock stops before the last steps' results are computed.
# SHOULD-SAY: The clock does not wait for the results: jax.block_until_ready only waits on pytree leaves, and your Carry dataclass is not a registered pytree, so it is passed through untouched. Block on the arrays themselves (jax.block_until_ready((carry.params, carry.opt_state, carry.loss))), or make Carry a NamedTuple / register it with jax.tree_util.register_dataclass.
"""Exercise 4 (reference): timing the training step with and without jax.jit."""

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
class Carry:
    """What one training step hands to the next."""

    params: dict
    opt_state: tuple
    loss: object = None

    def advance(self, step_fn, x, y):
        return Carry(*step_fn(self.params, self.opt_state, x, y))


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    carry = Carry(*jax.block_until_ready(step_fn(params, opt_state, x, y)))
    start = time.perf_counter()
    for _ in range(n_steps):
        carry = carry.advance(step_fn, x, y)
    jax.block_until_ready(carry)
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""
    key_params, key_x, key_y = jax.random.split(jax.random.PRNGKey(0), 3)
    params = init_params(key_params)
    x = jax.random.normal(key_x, (128, 784))
    y = jax.random.randint(key_y, (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": eager_s, "jit_s": jit_s, "speedup": eager_s / jit_s}
