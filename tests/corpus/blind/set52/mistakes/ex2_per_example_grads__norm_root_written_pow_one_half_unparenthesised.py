# BLIND-SET: 52
# EXERCISE: ex2
# WHAT: per_example_grad_norms takes the square root as `... ** 1/2`; ** binds tighter than /, so it returns half the per-example sum of squares (sum_sq / 2) instead of sqrt(sum_sq). The norms are wrong on every batch (the argmax, and so largest_gradient_example, happens to be unchanged).
# SHOULD-SAY: per_example_grad_norms does not return L2 norms: `s ** 1/2` is (s ** 1) / 2 because ** binds tighter than /. Write s ** 0.5, s ** (1 / 2) or jnp.sqrt(s).
"""Exercise 2: per-example gradients with jax.vmap (generator-sum norms)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return jax.vmap(lambda xi, yi: jax.grad(loss_fn)(params, xi[None], yi[None]))(x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return sum(jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))) for g in jax.tree.leaves(grads)) ** 1/2


def largest_gradient_example(params, x, y):
    """Index (Python int) of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return max(range(len(norms)), key=norms.__getitem__)

