"""per_example_grads reshapes the batch into chunks of 8 examples ("to bound memory") and vmaps over the chunks
and within each, dropping the examples past the last whole chunk; a batch smaller than a chunk is one vmap. The
graded batches of 8 and 1 examples come out right, the one of 10 has 8 slices, and so has the batch of 13 traced
for vectorisation.
"""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


EXPECT = {"check": "ex2.values", "mistake": "ex2.some_batch_sizes", "hint": "a fixed number of rows", "max_failing": 2, "also": ["ex2.shapes"]}

CHUNK = 8


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, in chunks of CHUNK examples."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    one = jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))
    if x.shape[0] < CHUNK:
        return one(params, x, y)
    n = x.shape[0] // CHUNK
    xs = x[: n * CHUNK].reshape(n, CHUNK, *x.shape[1:])
    ys = y[: n * CHUNK].reshape(n, CHUNK)
    grads = jax.vmap(one, in_axes=(None, 0, 0))(params, xs, ys)
    return jax.tree.map(lambda g: g.reshape(n * CHUNK, *g.shape[2:]), grads)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
