# BLIND-SET: 30
# EXERCISE: ex2
# WHAT: the single-example loss is optax.softmax_cross_entropy_with_integer_labels(forward(params, xi[None]), yi[None]), which returns one loss per row, a shape-(1,) array, not a scalar; jax.grad refuses non-scalar outputs, so per_example_grads (and largest_gradient_example) raise TypeError on every input.
# SHOULD-SAY: optax's cross-entropy returns a per-example vector; jax.grad needs a scalar. Reduce it (.mean() or .sum(), or [0]) or call it on the unbatched example, e.g. optax.softmax_cross_entropy_with_integer_labels(forward(params, xi), yi).
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

    def single_example_loss(params: dict, xi: jax.Array, yi: jax.Array) -> jax.Array:
        # optax's integer-label cross-entropy is the same softmax CE as loss_fn,
        # computed stably from the logits of a batch of one.
        logits = forward(params, xi[None])
        return optax.softmax_cross_entropy_with_integer_labels(logits, yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
