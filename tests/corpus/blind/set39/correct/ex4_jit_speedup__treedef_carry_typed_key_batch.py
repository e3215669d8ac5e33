# BLIND-SET: 39
# EXERCISE: ex4
# WHAT: Correct. time_steps makes one real warm-up call, blocks on it, then runs a host-side loop over a (params, opt_state) carry rebuilt each step with jax.tree_util.tree_unflatten from the step's output leaves (same treedef as the warm-up output), and blocks on the whole final (params, opt_state, loss) before stopping time.perf_counter. jit_speedup draws params and the 128-example batch from a new-style typed key (jax.random.key with fold_in) and times train_step and jax.jit(train_step), each from a fresh optimizer.init.
# SHOULD-SAY: Nothing to fix: compilation is excluded, the clock waits for the results, step_fn is called n_steps times after the warm-up with params and state threaded, and the dictionary has eager_s, jit_s and speedup = eager_s / jit_s.
"""Exercise 4: timing the training step with a flattened carry and typed keys."""

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


def time_steps(step_fn, params, opt_state, x, y, n_steps=100):
    """Wall-clock seconds for ``n_steps`` training steps."""
    out = jax.block_until_ready(step_fn(params, opt_state, x, y))  # warm-up: compiles
    leaves, treedef = jax.tree_util.tree_flatten(out)
    start = time.perf_counter()
    for _ in range(n_steps):
        params, opt_state, _ = jax.tree_util.tree_unflatten(treedef, leaves)
        out = step_fn(params, opt_state, x, y)
        leaves = jax.tree_util.tree_leaves(out)
    jax.block_until_ready(jax.tree_util.tree_unflatten(treedef, leaves))
    return time.perf_counter() - start


def jit_speedup(n_steps=100):
    """Time ``train_step`` eagerly and under ``jax.jit``."""
    root = jax.random.key(0)
    params = init_params(jax.random.fold_in(root, 0))
    x = jax.random.normal(jax.random.fold_in(root, 1), (128, 784))
    y = jax.random.randint(jax.random.fold_in(root, 2), (128,), 0, 10)
    with jax.named_scope("eager"):
        eager_s = time_steps(train_step, params, optimizer.init(params), x, y, n_steps)
    with jax.named_scope("jit"):
        jit_s = time_steps(jax.jit(train_step), params, optimizer.init(params), x, y, n_steps)
    return {"eager_s": float(eager_s), "jit_s": float(jit_s), "speedup": float(eager_s / jit_s)}
