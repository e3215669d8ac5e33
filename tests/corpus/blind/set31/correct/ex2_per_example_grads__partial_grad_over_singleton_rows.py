# BLIND-SET: 31
# EXERCISE: ex2
# WHAT: Correct rewrite: per_example_grads vmaps functools.partial(jax.grad(loss_fn), params) over x[:, None] and y[:, None] (each example a batch of one); norms sum squared, per-example-flattened leaves from jax.tree_util.tree_leaves in a generator; the index is max(range(B), key=norms.__getitem__) on a Python list.
# SHOULD-SAY: Nothing to fix: per-example gradients, their global norms and the Python int index all meet the contract.
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import functools

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


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
    return jax.vmap(functools.partial(jax.grad(loss_fn), params))(x[:, None], y[:, None])


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jnp.sqrt(
        sum(jnp.sum(jnp.square(g.reshape(g.shape[0], -1)), axis=1) for g in jax.tree_util.tree_leaves(grads))
    )


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y)).tolist()
    return max(range(len(norms)), key=norms.__getitem__)
