# BLIND-SET: 20
# EXERCISE: ex2
# WHAT: correct: vmap over grad of an unbatched single-example loss written with optax.losses.softmax_cross_entropy_with_integer_labels on (10,) logits; norms by tree_flatten + functools.reduce(operator.add) of per-example sums of squares; the index via list.index(max(...)) on norms.tolist()
# SHOULD-SAY: full marks: every leaf has a leading batch axis and slice i equals the gradient on example i alone, the computation is one vmap over grad, the norms cover all weights and biases, and the largest index is a plain Python int

"""Exercise 2: per-example gradients with an unbatched example loss."""

import functools
import operator

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _example_loss(params, xi, yi):
    """Cross-entropy of one example: xi is (784,), yi a scalar label."""
    logits = forward(params, xi)  # (10,)
    return optax.losses.softmax_cross_entropy_with_integer_labels(logits, yi)


_per_example = jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, batched on axis 0."""
    return _per_example(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm per example over every leaf."""
    leaves, _ = jax.tree_util.tree_flatten(grads)
    squares = (jnp.sum(jnp.square(leaf).reshape(leaf.shape[0], -1), axis=1) for leaf in leaves)
    return jnp.sqrt(functools.reduce(operator.add, squares))


def largest_gradient_example(params, x, y):
    """Python int index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return norms.index(max(norms))
