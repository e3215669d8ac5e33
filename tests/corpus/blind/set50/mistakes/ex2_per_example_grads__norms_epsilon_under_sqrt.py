# BLIND-SET: 50
# EXERCISE: ex2
# WHAT: per_example_grad_norms adds 1e-8 under the square root ("sqrt has an infinite derivative at 0"), returning sqrt(sum of squares + 1e-8). Norms of about 0.1 and up (the lesson's typical batches) are unchanged to float32 tolerance, but tiny gradients are inflated: an all-zero gradient gets norm 1e-4 instead of 0, and a true norm of 1e-8 becomes about 1e-4; since the epsilon swamps such sums in float32, those norms all come out equal and largest_gradient_example then returns 0 instead of the true index.
# SHOULD-SAY: The norms are biased upward for small gradients: sqrt(sum + 1e-8) is at least 1e-4, so zero or tiny gradients get the wrong norm. The function must return the exact global L2 norm; drop the epsilon (the value of sqrt at 0 is 0 and is fine; a derivative guard, if ever needed, belongs in a custom gradient, not in the value).
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


_SQRT_EPS = 1e-8  # keeps sqrt (and its derivative) finite at zero


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    squared = [jnp.sum(jnp.square(g.reshape(g.shape[0], -1)), axis=1) for g in jax.tree.leaves(grads)]
    total = sum(squared[1:], squared[0])
    return jnp.sqrt(total + _SQRT_EPS)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
