# BLIND-SET: 29
# EXERCISE: ex2
# WHAT: per-example gradients are vmapped over the example index i, slicing row i with lax.dynamic_slice(x, (0, i), (1, D)); the start indices are given as (column, row), and since the slice already spans every column the column start is clamped to 0, so every example uses x[0] (with its own label y[i]); the gradients, their norms and the largest index are wrong for any batch with more than one distinct row.
# SHOULD-SAY: lax.dynamic_slice takes one start index per axis in axis order, (row, column); (0, i) starts at row 0 and JAX silently clamps the out-of-range column start, so x[0] is used for every example. Use lax.dynamic_slice(x, (i, 0), (1, D)), or better vmap directly over x and y with in_axes=(None, 0, 0).
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
    B, D = x.shape

    def grad_of_example(i):
        xi = jax.lax.dynamic_slice(x, (0, i), (1, D))  # row i of x, kept 2-D
        yi = jax.lax.dynamic_slice(y, (i,), (1,))
        return jax.grad(loss_fn)(params, xi, yi)

    return jax.vmap(grad_of_example)(jnp.arange(B))


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
