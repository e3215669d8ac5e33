# BLIND-SET: 17
# EXERCISE: ex2
# WHAT: per_example_grad_norms squares the sum of each leaf's entries (sum(g)**2) instead of summing the squared entries (sum(g**2)), so the values are not L2 norms (opposite-sign entries cancel, same-sign entries compound) and the chosen index can change
# SHOULD-SAY: the per-example gradients are right (vmap over grad, leading axis B), but the norms are not L2 norms: the square is taken after summing each leaf, so entries of opposite sign cancel and the values (and possibly the chosen index) are wrong; square every element first, then sum over all non-batch axes and all leaves, then take the square root
"""Exercise 2: per-example gradients with jax.vmap."""

import jax
import jax.numpy as jnp

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


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""

    def one_example(p, xi, yi):
        return loss_fn(p, xi[None], yi[None])

    return jax.vmap(jax.grad(one_example), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    total = 0.0
    for g in jax.tree.leaves(grads):
        per_example = g.reshape(g.shape[0], -1)
        total = total + jnp.sum(per_example, axis=1) ** 2
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
