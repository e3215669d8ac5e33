# BLIND-SET: mistake
# EXERCISE: ex2
# WHAT: per_example_grads clips every example's gradient to global norm 1 (the DP-SGD recipe) before returning it, so examples whose norm exceeds 1 come back rescaled, their norms are capped at 1 and the largest-norm index becomes the first clipped example.
# SHOULD-SAY: ex2: per-example gradients are clipped to norm 1, so slices with norm > 1 do not match jax.grad on that example, norms are capped and the largest index is wrong.
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

    grads = jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)
    # DP-SGD style: bound each example's contribution to norm 1
    factor = jnp.minimum(1.0, 1.0 / (per_example_grad_norms(grads) + 1e-12))
    return jax.tree.map(lambda g: g * factor.reshape((-1,) + (1,) * (g.ndim - 1)), grads)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
