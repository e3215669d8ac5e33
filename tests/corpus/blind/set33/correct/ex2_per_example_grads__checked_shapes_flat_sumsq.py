# BLIND-SET: 33
# EXERCISE: ex2
# WHAT: correct rewrite: inputs coerced and shape-checked, vmap of jax.grad over a lambda that reshapes one example to a batch of one; norms accumulated as flat sums of squares per leaf; index via numpy argmax with a correct range assertion.
# SHOULD-SAY: nothing to fix: per-example gradients, norms and the Python int index match the contract and are vectorised.
"""Exercise 2: per-example gradients with jax.vmap over jax.grad (with input checks)."""

import jax
import jax.numpy as jnp
import numpy as np


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
    x = jnp.asarray(x, dtype=jnp.float32)
    y = jnp.asarray(y, dtype=jnp.int32)
    if x.ndim != 2 or y.ndim != 1 or x.shape[0] != y.shape[0]:
        raise ValueError(f"expected x (B, d) and y (B,), got {x.shape} and {y.shape}")
    grad_one = jax.grad(lambda p, xi, yi: loss_fn(p, xi.reshape(1, -1), yi.reshape(1)))
    return jax.vmap(grad_one, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    if not leaves:
        raise ValueError("grads has no leaves")
    batch = leaves[0].shape[0]
    total = jnp.zeros((batch,), dtype=jnp.float32)
    for leaf in leaves:
        if leaf.shape[0] != batch:
            raise ValueError("every leaf needs the same leading batch axis")
        total = total + jnp.sum(jnp.square(leaf.reshape(batch, -1)), axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    idx = int(np.argmax(norms))
    assert 0 <= idx < norms.shape[0]
    return idx
