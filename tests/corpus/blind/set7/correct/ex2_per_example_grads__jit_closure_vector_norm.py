# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: a jitted helper closes params into a one-example loss (x_i reshaped to (1, 784) with jnp.expand_dims) and vmaps jax.grad over (x, y) only; norms reshape each leaf to (B, -1), take jnp.linalg.vector_norm per leaf and combine with jnp.linalg.norm over the stacked leaf norms; the index is np.argmax converted with int().
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients through a closure, norms via vector_norm."""

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


@jax.jit
def _per_example(params, x, y):
    def grad_for(xi, yi):
        loss_i = lambda p: loss_fn(p, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))
        return jax.grad(loss_i)(params)

    return jax.vmap(grad_for)(x, y)


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _per_example(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaf_norms = [
        jnp.linalg.vector_norm(g.reshape(g.shape[0], -1), axis=1) for g in jax.tree.leaves(grads)
    ]
    return jnp.linalg.norm(jnp.stack(leaf_norms, axis=1), axis=1)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = np.asarray(per_example_grad_norms(per_example_grads(params, x, y)))
    return int(np.argmax(norms))
