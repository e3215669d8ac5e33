# BLIND-SET: 14
# EXERCISE: ex2
# WHAT: The per-example loss picks the label's log-probability with jnp.take_along_axis on an unbatched example, norms are (sum of squares over a tree_map of per-example sums) ** 0.5, and the index comes from jnp.argwhere(norms == norms.max()).
# SHOULD-SAY: Everything correct: per-example gradients match, leaf by leaf, with a leading axis B and are computed by jax.vmap over jax.grad; norms cover weights and biases; the index is a Python int pointing at the largest norm; results agree under jax.jit.
"""Exercise 2 (variant): per-example gradients with a gathered log-probability."""

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


def _nll_one(params, xi, yi):
    """Cross-entropy of one unbatched example: -log p(yi | xi)."""
    log_probs = jax.nn.log_softmax(forward(params, xi))
    return -jnp.take_along_axis(log_probs, jnp.reshape(yi, (1,)), axis=0)[0]


def per_example_grads(params, x, y):
    """Gradient of each example's own loss, stacked on a leading axis."""
    grad_one = jax.grad(_nll_one)
    return jax.vmap(grad_one, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm per example over every leaf."""
    sq = jax.tree.map(lambda g: jnp.sum(jnp.square(g).reshape(g.shape[0], -1), axis=1), grads)
    total = sum(jax.tree.leaves(sq))
    return total ** 0.5


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient norm is largest (first on ties)."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    hits = jnp.argwhere(norms == jnp.max(norms))
    return int(hits[0, 0])
