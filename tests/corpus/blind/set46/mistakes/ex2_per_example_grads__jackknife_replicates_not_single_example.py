# BLIND-SET: 46
# EXERCISE: ex2
# WHAT: per_example_grads returns, for each i, the jackknife leave-one-out replicate: the gradient of the mean loss over the batch with example i removed (weights 1 - e_i normalised by their sum), not the gradient on example i alone; with B = 1 every leaf is NaN (0/0). Norms and the index are computed from these wrong gradients.
# SHOULD-SAY: slice i is the gradient of the batch without example i (a jackknife replicate), not of example i alone. For the mean loss the per-example gradient is the jackknife pseudo-value, i.e. just jax.grad(loss_fn)(params, x[i:i+1], y[i:i+1]): vmap jax.grad of a one-example loss over (None, 0, 0).
"""Exercise 2: per-example gradients as jackknife replicates."""

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


def _weighted_loss(params, x, y, w):
    """Weighted mean cross-entropy: sum_i w_i l_i / sum_i w_i."""
    logits = forward(params, x)
    nll = -jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1)
    return jnp.sum(w * nll) / jnp.sum(w)


def per_example_grads(params, x, y):
    """One gradient sample per example, stacked on a leading axis of size B.

    Example i's contribution is measured the jackknife way: drop it from the
    sample (weight 0, everybody else weight 1) and take the gradient of the
    reweighted mean loss. vmap runs the B replicates in one call.
    """
    n = x.shape[0]

    def replicate(i):
        w = 1.0 - jax.nn.one_hot(i, n, dtype=x.dtype)
        return jax.grad(_weighted_loss)(params, x, y, w)

    return jax.vmap(replicate)(jnp.arange(n))


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    n = leaves[0].shape[0]
    ss = sum(jnp.sum(jnp.square(leaf.reshape(n, -1)), axis=1) for leaf in leaves)
    return jnp.sqrt(ss)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
