# BLIND-SET: 56
# EXERCISE: ex2
# WHAT: Correct. A Python-loop draft of per_example_grads is redefined by a later cell that vmaps jax.grad(loss_fn) over x[:, None, :] and y[:, None] (in_axes (None, 0, 0)), through a module-level cache of the vmapped function that closes over nothing; norms are the square root of a tree_map of per-example sums of squares added with tree.reduce; the index is int(argmax). Notebook globals, prints and the redefinition are harmless.
# SHOULD-SAY: Nothing to fix: per-example gradients, norms over every leaf and the Python int index all match the reference, vectorised with jax.vmap.
"""Exercise 2: per-example gradients with jax.vmap (pasted from my Colab notebook)."""

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- cell 2: notebook data ----------------------------------------------------------


def init_params(key, sizes=(784, 256, 128, 10)):
    params = {}
    for i, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:]), start=1):
        key, sub = jax.random.split(key)
        params[f"layer{i}"] = {
            "w": jax.random.normal(sub, (n_in, n_out)) * jnp.sqrt(2.0 / n_in),
            "b": jnp.zeros(n_out),
        }
    return params


params = init_params(jax.random.PRNGKey(0))
x_batch = jax.random.normal(jax.random.PRNGKey(1), (128, 784))
y_batch = jax.random.randint(jax.random.PRNGKey(2), (128,), 0, 10)

_cache = {}  # compiled helpers, so re-running the cell is faster


# --- cell 3: slow version first, to have something to compare against -----------------


def per_example_grads(params, x, y):
    gs = [jax.grad(loss_fn)(params, x[i : i + 1], y[i : i + 1]) for i in range(x.shape[0])]
    return jax.tree.map(lambda *leaves: jnp.stack(leaves), *gs)


slow = per_example_grads(params, x_batch[:4], y_batch[:4])


# --- cell 4: the vmap version (this is the one I keep) -------------------------------


def per_example_grads(params, x, y):
    if "vg" not in _cache:
        _cache["vg"] = jax.vmap(jax.grad(loss_fn), in_axes=(None, 0, 0))
    # each "batch" fed to loss_fn is one example: (1, 784) and (1,)
    return _cache["vg"](params, x[:, None, :], y[:, None])


fast = per_example_grads(params, x_batch[:4], y_batch[:4])
print("vmap == loop:", jax.tree.all(jax.tree.map(lambda a, b: jnp.allclose(a, b, atol=1e-6), slow, fast)))


# --- cell 5: norms ---------------------------------------------------------------------


def per_example_grad_norms(grads):
    per_leaf = jax.tree.map(lambda g: jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=-1), grads)
    return jnp.sqrt(jax.tree.reduce(jnp.add, per_leaf))


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    best = jnp.argmax(norms)
    return int(best)


idx = largest_gradient_example(params, x_batch, y_batch)
print("largest gradient: example", idx, "label", int(y_batch[idx]))
