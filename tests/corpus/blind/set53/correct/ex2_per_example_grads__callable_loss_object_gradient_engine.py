# BLIND-SET: 53
# EXERCISE: ex2
# WHAT: Correct. A callable `ExampleLoss` object (one example lifted to a batch of one) is differentiated by a `PerExampleGradients` engine that builds jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)) in __init__; a `GlobalNorm` dataclass sums per-leaf squares over a (B, -1) view and takes the root; the largest index is int(argmax). Same values as the reference.
# SHOULD-SAY: Nothing to fix: every ex2 check passes.
"""Exercise 2: per-example gradients with jax.vmap, written with small classes."""

import dataclasses

import jax
import jax.numpy as jnp

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- Your code ----------------------------------------------------------------


class ExampleLoss:
    """The loss of one example, as a callable object."""

    def __init__(self, batch_loss=loss_fn):
        self.batch_loss = batch_loss

    def __call__(self, params, xi, yi):
        return self.batch_loss(params, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))


class PerExampleGradients:
    """vmap over grad: params shared (None), examples and labels mapped (0)."""

    def __init__(self, loss=None):
        self.loss = loss if loss is not None else ExampleLoss()
        self._fn = jax.vmap(jax.grad(self.loss), in_axes=(None, 0, 0))

    def __call__(self, params, x, y):
        return self._fn(params, x, y)


@dataclasses.dataclass
class GlobalNorm:
    """Global L2 norm of each example's gradient over every leaf."""

    def leaf_squares(self, leaf):
        flat = jnp.reshape(leaf, (leaf.shape[0], -1))
        return jnp.sum(flat * flat, axis=1)

    def __call__(self, grads):
        parts = [self.leaf_squares(leaf) for leaf in jax.tree_util.tree_leaves(grads)]
        return jnp.sqrt(jnp.sum(jnp.stack(parts), axis=0))


_ENGINE = PerExampleGradients()
_NORM = GlobalNorm()


def per_example_grads(params, x, y):
    return _ENGINE(params, x, y)


def per_example_grad_norms(grads):
    return _NORM(grads)


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
