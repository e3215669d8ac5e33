# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: The single-example loss is written unbatched as -log_softmax(logits)[y] (integer indexing, no one-hot); norms reduce squared leaves with jax.tree.reduce(jnp.add); the index is found on a Python list with list.index(max(...)).
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with an unbatched indexed loss."""

import jax
import jax.numpy as jnp
import optax


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
    def nll(p, xi, yi):
        return -jax.nn.log_softmax(forward(p, xi))[yi]

    return jax.vmap(jax.grad(nll), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    per_leaf = jax.tree.map(lambda g: (g * g).reshape(g.shape[0], -1).sum(axis=1), grads)
    return jnp.sqrt(jax.tree.reduce(jnp.add, per_leaf))


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return norms.index(max(norms))
