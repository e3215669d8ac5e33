# BLIND-SET: 52
# EXERCISE: ex2
# WHAT: correct. per_example_grads vmaps functools.partial(jax.grad(loss_fn), params) over unbatched rows (loss_fn works on a (784,) row and a scalar label), the norms fold per-leaf row norms with functools.reduce(jnp.hypot, ...), and the index is max(range(B), key=norms.__getitem__) on a Python list (first maximum, like argmax), returned as a Python int.
# SHOULD-SAY: Nothing to fix: full marks for ex2.
"""Exercise 2: per-example gradients with jax.vmap (partial + hypot fold)."""

from functools import partial, reduce

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
    """One row and one label at a time: loss_fn on a (784,) row is that example's loss."""
    return jax.vmap(partial(jax.grad(loss_fn), params))(x, y)


def per_example_grad_norms(grads):
    """hypot-fold of each leaf's per-example L2 norm = global norm per example."""
    return reduce(jnp.hypot, (jnp.linalg.norm(g.reshape(g.shape[0], -1), axis=1) for g in jax.tree.leaves(grads)))


def largest_gradient_example(params, x, y):
    """Index (Python int) of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return max(range(len(norms)), key=norms.__getitem__)
