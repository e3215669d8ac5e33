# BLIND-SET: 16
# EXERCISE: ex2
# WHAT: correct rewrite: the single-example loss uses optax.softmax_cross_entropy_with_integer_labels on one unbatched example, the norms come from concatenating every leaf flattened per example, and the index is taken with .item().
# SHOULD-SAY: everything is correct: per_example_grads is jax.vmap over jax.grad with a leading batch axis on every leaf and each slice equals that example's own gradient, the norms are the global L2 norm over all weights and biases, and largest_gradient_example returns a Python int.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad (optax loss version)."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(jnp.matmul(x, params["layer1"]["w"]) + params["layer1"]["b"])
    h = jax.nn.relu(jnp.matmul(h, params["layer2"]["w"]) + params["layer2"]["b"])
    return jnp.matmul(h, params["layer3"]["w"]) + params["layer3"]["b"]


def example_loss(params, xi, yi):
    """Softmax cross-entropy of one example (a batch of one has mean = itself)."""
    logits = forward(params, xi)
    return optax.softmax_cross_entropy_with_integer_labels(logits, yi)


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    grad_one = jax.grad(example_loss, argnums=0)
    return jax.vmap(grad_one, in_axes=(None, 0, 0), out_axes=0)(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(batch, -1) for leaf in leaves], axis=1)
    return jnp.sqrt(jnp.sum(jnp.square(flat), axis=1))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return jnp.argmax(norms).item()
