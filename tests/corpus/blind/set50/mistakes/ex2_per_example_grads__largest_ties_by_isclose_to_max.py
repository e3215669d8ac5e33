# BLIND-SET: 50
# EXERCISE: ex2
# WHAT: largest_gradient_example treats every example whose norm is jnp.isclose to the maximum (rtol 1e-5, atol 1e-8) as tied and returns the first of them. With typical gradients only the true maximum qualifies, but when all norms are tiny (below about 1e-8, e.g. confidently correct predictions) every example is "close" to the maximum and it returns 0 instead of the index of the largest norm.
# SHOULD-SAY: The returned index is not the example with the largest norm when gradients are tiny: jnp.isclose has an absolute tolerance of 1e-8, so all tiny norms count as ties and the first index wins. Return int(jnp.argmax(norms)) directly (argmax already breaks exact ties by the first index); do not compare against the maximum with a tolerance.
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def loss_of_one(p, xi, yi):
        return loss_fn(p, xi[None, :], yi[None])

    return jax.vmap(jax.grad(loss_of_one), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    sq = jnp.zeros((batch,), jnp.float32)
    for g in leaves:
        sq = sq + jnp.sum(g.reshape(batch, -1) ** 2, axis=1)
    return jnp.sqrt(sq)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm.

    Float noise can make two nearly equal norms swap places between runs, so
    everything within floating-point tolerance of the maximum counts as a tie
    and the earliest such example is reported.
    """
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    near_max = jnp.isclose(norms, jnp.max(norms))
    return int(jnp.argmax(near_max))
