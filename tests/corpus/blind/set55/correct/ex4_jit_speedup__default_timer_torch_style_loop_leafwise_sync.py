# BLIND-SET: 55
# EXERCISE: ex4
# WHAT: correct: timeit.default_timer (perf_counter) around exactly n_steps threaded calls after one blocked warm-up, with a torch.cuda.synchronize-like helper that calls .block_until_ready() on every leaf of (params, opt_state, loss) before the clock stops; jit_speedup builds its data with explicit PRNGKey splits and fresh optimizer states.
# SHOULD-SAY: Nothing to fix: every ex4 check should pass.
"""Exercise 4: jit vs eager, PyTorch benchmarking habits translated."""

import time
from timeit import default_timer as timer

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


def _synchronize(tree):
    """torch.cuda.synchronize() equivalent: wait for every array in tree."""
    for leaf in jax.tree_util.tree_leaves(tree):
        leaf.block_until_ready()
    return tree


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    _synchronize(step_fn(params, opt_state, x, y))  # warm-up / compile, result discarded
    tic = timer()
    out = (params, opt_state, None)
    for _ in range(n_steps):
        out = step_fn(out[0], out[1], x, y)
    _synchronize(out)
    toc = timer()
    return float(toc - tic)


def jit_speedup(n_steps=100):
    key = jax.random.PRNGKey(42)
    k_params, k_data, k_labels = jax.random.split(key, num=3)
    params = init_params(k_params)
    batch_x = jax.random.uniform(k_data, (128, 784), dtype=jnp.float32)
    batch_y = jax.random.randint(k_labels, (128,), minval=0, maxval=10, dtype=jnp.int32)
    timings = {}
    for label, fn in (("eager_s", train_step), ("jit_s", jax.jit(train_step))):
        timings[label] = time_steps(fn, params, optimizer.init(params), batch_x, batch_y, n_steps=n_steps)
    timings["speedup"] = timings["eager_s"] / timings["jit_s"]
    return timings
