# BLIND-SET: 31
# EXERCISE: ex2
# WHAT: per_example_grad_norms maps the leaves to per-example sums of squares with a lazy `map`, then sizes its accumulator with `jnp.zeros_like(next(sq_sums))`; that `next` consumes the first leaf (layer1's bias, first in pytree order), so the norms leave it out. Norms come out too small (by layer1's bias gradient), which can also move the argmax; the gradients themselves are right.
# SHOULD-SAY: The norms skip one leaf, layer1/b: the `next(sq_sums)` used to build the zero accumulator takes the first item off the map iterator and it is never added. Start from 0.0 (or take the shape from x.shape[0] / the list of leaves), or materialise the sums in a list and `sum` them all.
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
    sq_sums = map(
        lambda g: jnp.sum(jnp.square(g).reshape(g.shape[0], -1), axis=1),
        jax.tree_util.tree_leaves(grads),
    )
    total = jnp.zeros_like(next(sq_sums))
    for s in sq_sums:
        total = total + s
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
