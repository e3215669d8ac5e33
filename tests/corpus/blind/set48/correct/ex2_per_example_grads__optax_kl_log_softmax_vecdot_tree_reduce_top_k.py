# BLIND-SET: 48
# EXERCISE: ex2
# WHAT: Correct. The per-example loss is optax.losses.kl_divergence(jax.nn.log_softmax(logits), jax.nn.one_hot(y, 10)), equal to the cross-entropy because a one-hot target has zero entropy; jax.vmap(jax.grad(...), in_axes=(None, 0, 0)) gives the gradients. Norms are sqrt of jax.tree.reduce(jnp.add) over per-leaf jnp.vecdot sums of squares of a (B, -1) view; the index is jax.lax.top_k(norms, 1) turned into a Python int.
# SHOULD-SAY: Nothing to fix: gradients, norms and index meet the contract (full marks for ex2).
"""Exercise 2: per-example gradients with jax.vmap and optax losses."""

import jax
import jax.numpy as jnp
import optax

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


def _example_loss(params, xi, yi):
    """Cross-entropy of one example as KL(one_hot || softmax)."""
    log_probs = jax.nn.log_softmax(forward(params, xi))
    return optax.losses.kl_divergence(log_probs, jax.nn.one_hot(yi, 10))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""
    return jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""

    def sumsq(g):
        flat = g.reshape(g.shape[0], -1)
        return jnp.vecdot(flat, flat)

    return jnp.sqrt(jax.tree.reduce(jnp.add, jax.tree.map(sumsq, grads)))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    _, index = jax.lax.top_k(norms, 1)
    return int(index[0])
