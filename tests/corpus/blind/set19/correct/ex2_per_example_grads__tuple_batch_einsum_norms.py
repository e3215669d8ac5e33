# BLIND-SET: 19
# EXERCISE: ex2
# WHAT: vmaps jax.grad over a (x, y) tuple batch with in_axes=(None, 0), norms via a per-leaf einsum self-contraction folded with tree_reduce, index via numpy argmax
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with jax.vmap."""

import operator

import jax
import jax.numpy as jnp
import numpy as np

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


def _pair_loss(params, pair):
    xi, yi = pair
    return loss_fn(params, xi.reshape(1, -1), yi.reshape(1))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    return jax.vmap(jax.grad(_pair_loss), in_axes=(None, 0))(params, (x, y))


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    sq = jax.tree.map(lambda g: jnp.einsum("b...,b...->b", g, g), grads)
    return jnp.sqrt(jax.tree_util.tree_reduce(operator.add, sq))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    return int(np.argmax(norms))
