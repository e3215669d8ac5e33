# BLIND-SET: 22
# EXERCISE: ex2
# WHAT: correct variant: a small callable class holding jax.vmap(jax.grad(...), in_axes=(None, 0, 0)) of an unbatched example loss written as logsumexp(logits) - logits[label]; norms by a jax.tree.reduce of per-leaf row sums of squares; the index via list.index(max(...)) on norms.tolist().
# SHOULD-SAY: full marks: per-example gradients match jax.grad on each example alone with a leading batch axis on every leaf, computed with vmap over grad; the norms are the global L2 norm over all weights and biases; the largest index is a Python int.
"""Exercise 2: per-example gradients through a small callable object."""

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


class PerExampleGrad:
    """Maps one example's loss gradient over the batch axis of x and y."""

    def __init__(self, model):
        def example_loss(params, xi, yi):
            logits = model(params, xi)  # unbatched: xi is (784,), logits (10,)
            return jax.nn.logsumexp(logits) - logits[yi]

        self._fn = jax.vmap(jax.grad(example_loss), in_axes=(None, 0, 0))

    def __call__(self, params, x, y):
        return self._fn(params, x, y)


_per_example = PerExampleGrad(forward)


def per_example_grads(params, x, y):
    """Gradient of each example's loss, stacked on a leading axis of size B."""
    return _per_example(params, x, y)


def per_example_grad_norms(grads):
    """sqrt of the sum of squares over every leaf, one value per example."""
    row_sums = jax.tree.map(lambda g: jnp.sum(jnp.square(g.reshape(g.shape[0], -1)), axis=1), grads)
    return jnp.sqrt(jax.tree.reduce(jnp.add, row_sums))


def largest_gradient_example(params, x, y):
    """Python int index of the largest per-example gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return norms.index(max(norms))
