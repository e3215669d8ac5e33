# BLIND-SET: 49
# EXERCISE: ex4
# WHAT: Inside the timed loop, time_steps re-distributes the caller's original host params and opt_state with device_put before every call and stores the outputs under new names, so all n_steps calls receive the same starting params and state: nothing is threaded from one step into the next (each call repeats step 1), and a transfer sits inside the timed region.
# SHOULD-SAY: The step outputs are never fed back in: every timed call gets the original params/opt_state re-placed from the host. Assign the outputs back (params, opt_state, loss = step_fn(params, opt_state, x, y)) and do the device_put once, before the warm-up and outside the clock.
"""Exercise 4: timing the training step with and without jax.jit, placed on devices first."""

import time

import jax
import jax.numpy as jnp
import optax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()), ("data",))
REPLICATED = NamedSharding(MESH, P())
POD_CORES = 8  # the slice this was written for: 128 examples = 8 cores x 16


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


def _wait_on_every_device(tree):
    # block on each addressable shard of every leaf, i.e. on every device
    for leaf in jax.tree.leaves(tree):
        for shard in getattr(leaf, "addressable_shards", ()):
            shard.data.block_until_ready()
    return jax.block_until_ready(tree)


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Seconds for `n_steps` calls of `step_fn`, after placement and one warm-up call."""
    # host-to-device transfers happen before the clock starts
    x = jax.device_put(x, NamedSharding(MESH, P("data")))
    y = jax.device_put(y, NamedSharding(MESH, P("data")))
    dev_params, dev_state = jax.device_put((params, opt_state), REPLICATED)
    new_params, new_state, loss = _wait_on_every_device(step_fn(dev_params, dev_state, x, y))
    start = time.perf_counter()
    for _ in range(n_steps):
        # re-place the model on every device from the host copy before each step
        dev_params, dev_state = jax.device_put((params, opt_state), REPLICATED)
        new_params, new_state, loss = step_fn(dev_params, dev_state, x, y)
    _wait_on_every_device((new_params, new_state, loss))
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
