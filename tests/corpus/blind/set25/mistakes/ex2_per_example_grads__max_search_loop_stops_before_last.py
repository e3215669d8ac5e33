# BLIND-SET: 25
# EXERCISE: ex2
# WHAT: largest_gradient_example finds the maximum with a hand-written loop `for i in range(1, len(norms) - 1)`, so the last example is never compared. Whenever the last example has the largest gradient norm the function returns another index (for B = 2 it always returns 0).
# SHOULD-SAY: The search loop stops one example early: range(1, len(norms) - 1) leaves out index B - 1. Loop over range(1, len(norms)), or simply return int(jnp.argmax(norms)).
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
    best = 0
    for i in range(1, len(norms) - 1):
        if norms[i] > norms[best]:
            best = i
    return best
