# BLIND-SET: 31
# EXERCISE: ex2
# WHAT: per_example_grad_norms squares with `square = functools.partial(jnp.power, 2)`; partial binds 2 as the base, so it computes 2 ** g, and the "norm" is sqrt(sum(2 ** g)) (about sqrt(number of parameters) for small gradients). Norms are wrong for every example and the chosen index no longer follows the gradient size; the gradients are right.
# SHOULD-SAY: The norms are not sums of squares: `functools.partial(jnp.power, 2)` fixes the first argument (the base), so `square(g)` is 2 ** g, not g ** 2. Use `jnp.square(g)`, `g ** 2` or `jnp.power(g, 2)`.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import functools

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
    square = functools.partial(jnp.power, 2)
    return jnp.sqrt(
        sum(jnp.sum(square(g).reshape(g.shape[0], -1), axis=1) for g in jax.tree_util.tree_leaves(grads))
    )


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
