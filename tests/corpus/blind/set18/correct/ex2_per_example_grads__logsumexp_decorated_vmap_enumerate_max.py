# BLIND-SET: 18
# EXERCISE: ex2
# WHAT: the per-example loss is written for one unbatched example as logsumexp(logits) - logits[y]; its gradient is vmapped with a functools.partial(jax.vmap, ...) decorator; norms are a tree_reduce of einsum sums of squares; the index is found with max(enumerate(...)) on a Python list.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with jax.vmap."""

import functools
import operator

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


def _nll_one(params, xi, yi):
    """Cross-entropy of a single, unbatched example: logsumexp(z) - z[y]."""
    z = forward(params, xi)  # (10,)
    return jax.nn.logsumexp(z) - jnp.take(z, yi)


@functools.partial(jax.vmap, in_axes=(None, 0, 0))
def _grads_each(params, xi, yi):
    return jax.grad(_nll_one)(params, xi, yi)


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    return _grads_each(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    per_leaf = jax.tree.map(
        lambda g: jnp.einsum("bk,bk->b", g.reshape(g.shape[0], -1), g.reshape(g.shape[0], -1)),
        grads,
    )
    return jnp.sqrt(jax.tree_util.tree_reduce(operator.add, per_leaf))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    index, _ = max(enumerate(norms), key=operator.itemgetter(1))
    return index
