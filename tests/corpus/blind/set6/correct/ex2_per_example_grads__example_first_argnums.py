# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: The per-example loss takes (xi, yi, params) on an unbatched example and is differentiated with jax.grad(..., argnums=2), vmapped with in_axes=(0, 0, None); norms are per-leaf sums of squares over all non-batch axes added with builtin sum over jax.tree.leaves; the index goes through numpy.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with jax.vmap over jax.grad (example-first signature)."""

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


def _example_loss(xi, yi, params):
    """Cross-entropy of one unbatched example: xi is (784,), yi a scalar label."""
    logits = forward(params, xi)  # (10,)
    return -jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(yi, 10))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return jax.vmap(jax.grad(_example_loss, argnums=2), in_axes=(0, 0, None))(x, y, params)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squares = jax.tree.map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(sum(jax.tree.leaves(squares)))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    return int(norms.argmax())
