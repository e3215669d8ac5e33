# BLIND-SET: correct
# EXERCISE: ex4
# WHAT: time_steps uses a small lap() closure over time.perf_counter for start/stop and blocks by calling .block_until_ready() on every array leaf of the final (params, opt_state, loss) (jax.tree.leaves); the loop carries the whole output tuple `out` and indexes out[0], out[1] for the next call. jit_speedup uses jax.jit as a decorator on a local wrapper of train_step.
# SHOULD-SAY: full marks
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


def _block(tree):
    for leaf in jax.tree.leaves(tree):
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
    return tree


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after one warm-up call."""
    out = _block(step_fn(params, opt_state, x, y))  # warm-up: compiles the step
    t_start = time.perf_counter()

    def lap():
        return time.perf_counter() - t_start

    for _ in range(n_steps):
        out = step_fn(out[0], out[1], x, y)
    _block(out)
    return lap()


def jit_speedup(n_steps=100):
    """Time the training step eagerly and jitted; report both and their ratio."""

    @jax.jit
    def jitted_step(params, opt_state, x, y):
        return train_step(params, opt_state, x, y)

    keys = jax.random.split(jax.random.PRNGKey(3), 3)
    params = init_params(keys[0])
    x = jax.random.normal(keys[1], (128, 784))
    y = jax.random.randint(keys[2], (128,), 0, 10)
    eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    jit_s = time_steps(jitted_step, params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": eager_s / jit_s}
