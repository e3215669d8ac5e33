# BLIND-SET: 31
# EXERCISE: ex2
# WHAT: largest_gradient_example returns `max(enumerate(norms.tolist()))[0]`; tuples compare by their first item, the index, so it always returns B - 1 whatever the norms are (right only when the last example happens to have the largest norm, e.g. B = 1). Gradients and norms are right.
# SHOULD-SAY: The index is always the last example: max over (index, norm) pairs compares the indices first. Compare by the norm (`max(enumerate(norms), key=lambda t: t[1])[0]`, or `int(jnp.argmax(norms))`).
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

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return max(enumerate(norms.tolist()))[0]
