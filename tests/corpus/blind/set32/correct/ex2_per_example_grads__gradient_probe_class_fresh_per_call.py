# BLIND-SET: 32
# EXERCISE: ex2
# WHAT: correct rewrite: a GradientProbe object made fresh for each call holds the params and a vmapped jax.grad bound method; norms are summed leaf by leaf from reshaped (B, -1) views in a local list; the index comes from a small NamedTuple ranking built by keyword.
# SHOULD-SAY: nothing to fix; per-example gradients, norms and the index are all correct.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


class GradientProbe:
    """Per-example gradients of the lesson's loss at fixed params."""

    def __init__(self, params):
        self.params = params

    @staticmethod
    def example_loss(params, xi, yi):
        return loss_fn(params, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))

    def grads(self, x, y):
        grad_one = jax.grad(self.example_loss)
        return jax.vmap(grad_one, in_axes=(None, 0, 0))(self.params, x, y)


class Ranking(NamedTuple):
    index: int
    norm: float


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return GradientProbe(params).grads(x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squares = []
    for leaf in jax.tree.leaves(grads):
        flat = jnp.reshape(leaf, (leaf.shape[0], -1))
        squares.append(jnp.sum(flat * flat, axis=1))
    return jnp.sqrt(jnp.sum(jnp.stack(squares), axis=0))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    best = int(jnp.argmax(norms))
    ranking = Ranking(index=best, norm=float(norms[best]))
    return ranking.index
