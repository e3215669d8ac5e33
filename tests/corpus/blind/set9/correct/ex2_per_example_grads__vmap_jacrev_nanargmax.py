# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: vmaps jax.jacrev (for a scalar loss, the same as jax.grad) over the examples; norms sum per-leaf squares over all non-batch axes; the index comes from jnp.nanargmax.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients via vmap of jacrev."""

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


def _example_loss(params, xi, yi):
    return loss_fn(params, xi[jnp.newaxis, :], jnp.reshape(yi, (1,)))


def per_example_grads(params, x, y):
    return jax.vmap(jax.jacrev(_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    squares = jax.tree.map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(sum(jax.tree.leaves(squares)))


def largest_gradient_example(params, x, y):
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.nanargmax(norms))
