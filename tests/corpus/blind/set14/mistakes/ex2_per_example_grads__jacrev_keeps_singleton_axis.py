# BLIND-SET: 14
# EXERCISE: ex2
# WHAT: per_example_grads takes jax.jacrev of an unreduced length-1 loss vector, so every leaf has shape (B, 1, *param_shape) instead of (B, *param_shape).
# SHOULD-SAY: per_example_grads has the right numbers but the wrong shapes: every leaf carries an extra size-1 axis, (B, 1, 784, 256) instead of (B, 784, 256), because jacrev of a length-1 loss vector keeps the output axis; reduce the per-example loss to a scalar (jax.grad of loss_fn(params, xi[None], yi[None])) or squeeze axis 1. per_example_grad_norms and largest_gradient_example still give the right norms and index on this output.
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

    def example_losses(params, xb, yb):
        # Unreduced cross-entropy: one loss per example in the (sub)batch.
        logits = forward(params, xb)
        return -jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(yb, 10), axis=-1)

    def single_example_grad(params, xi, yi):
        # grad needs a scalar output, so take the Jacobian of the length-1 loss vector.
        return jax.jacrev(example_losses)(params, xi[None], yi[None])

    return jax.vmap(single_example_grad, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
