"""largest_gradient_example tracks the running maximum in a Python loop, but the line that stores the best norm
sits outside the `if`, so every norm replaces the best one: each norm is compared only with the one before it and
the index returned is the last one larger than its predecessor. The report measures that reading on every batch.
"""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm

EXPECT = {"check": "ex2.largest", "mistake": "ex2.running_best_overwritten", "hint": "compared only with the one before", "max_failing": 1}


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
    norms = [float(n) for n in per_example_grad_norms(per_example_grads(params, x, y))]
    best_i, best = 0, norms[0]
    for i, norm in enumerate(norms):
        if norm > best:
            best_i = i
        best = norm
    return best_i
