# BLIND-SET: 29
# EXERCISE: ex2
# WHAT: x and y are packed into one design matrix with the label appended as the last column (jnp.column_stack([x, y])), but each vmapped row is unpacked as if the label were the first column (yi = row[0], xi = row[1:]); each example's gradient is taken on its features shifted by one with its label as the last pixel, and with int(x[i, 0]) as its label, so gradients, norms and the largest index are all wrong.
# SHOULD-SAY: The packing and unpacking conventions disagree: the label was stored in the last column but read from the first, so the inputs are shifted and the "labels" are truncated pixel values (often outside 0..9, giving an all-zero one-hot). Read xi = row[:-1] and yi = row[-1], or skip the packing and vmap over x and y directly with in_axes=(None, 0, 0).
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

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


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    # one row per example: the 784 features, then the label as an extra column
    data = jnp.column_stack([x, y.astype(x.dtype)])

    def grad_of_row(params, row):
        yi = row[0].astype(jnp.int32)
        xi = row[1:]
        return jax.grad(loss_fn)(params, xi[None, :], yi[None])

    return jax.vmap(grad_of_row, in_axes=(None, 0))(params, data)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
