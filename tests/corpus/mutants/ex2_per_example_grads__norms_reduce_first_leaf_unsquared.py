"""The per-example norm squares each leaf's norm as it accumulates them with functools.reduce and no initial value:
the first leaf's norm (layer1's bias, first in jax.tree.leaves' order) seeds the total unsquared, so the result is
sqrt(||g_layer1/b|| + the other leaves' squared norms)."""

import functools

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


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    norms = [jnp.linalg.norm(leaf.reshape(leaf.shape[0], -1), axis=1) for leaf in jax.tree_util.tree_leaves(grads)]
    return jnp.sqrt(functools.reduce(lambda total, n: total + n * n, norms))

def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

EXPECT = {'check': 'ex2.norms', 'mistake': 'ex2.leaf_norm_unsquared', 'max_failing': 1, 'hint': 'initial'}
