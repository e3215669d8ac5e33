# BLIND-SET: mistake
# EXERCISE: ex2
# WHAT: per_example_grads vmaps over example indices and slices x[i:i+1] with the traced index, which JAX cannot do (slice bounds must be static).
# SHOULD-SAY: ex2 per_example_grads raises IndexError (slice entries must be static integers) on every call, so the gradient, shape, vectorisation, norms (via grads) and argmax checks all error.
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

    grad_fn = jax.grad(loss_fn)
    # one gradient per example index, vectorised over the indices
    return jax.vmap(lambda i: grad_fn(params, x[i : i + 1], y[i : i + 1]))(jnp.arange(x.shape[0]))


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
