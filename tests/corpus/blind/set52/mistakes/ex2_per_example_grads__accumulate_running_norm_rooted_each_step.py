# BLIND-SET: 52
# EXERCISE: ex2
# WHAT: per_example_grad_norms builds the norm with itertools.accumulate(sums_of_squares, lambda run, s: jnp.sqrt(run + s)); the running value is already a root but the next sum of squares is added to it as if it were still squared, so the result is nested square roots (sqrt(s6 + sqrt(s5 + ... sqrt(s1 + s2)))), not sqrt(s1 + ... + s6). The norms differ on every batch and the argmax can change.
# SHOULD-SAY: per_example_grad_norms is not the global L2 norm: the accumulate keeps a square root as its running value and then adds raw sums of squares to it. Accumulate the sums of squares and take one sqrt at the end (or keep the running value a norm and combine with jnp.hypot / sqrt(run**2 + s)).
"""Exercise 2: per-example gradients with jax.vmap (running norm with accumulate)."""

from itertools import accumulate

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
    sq = lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim)))
    *_, norm = accumulate(map(sq, jax.tree.leaves(grads)), lambda run, s: jnp.sqrt(run + s))
    return norm


def largest_gradient_example(params, x, y):
    """Index (Python int) of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return max(range(len(norms)), key=norms.__getitem__)

