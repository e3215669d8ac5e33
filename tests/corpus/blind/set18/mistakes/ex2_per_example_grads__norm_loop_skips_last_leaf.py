# BLIND-SET: 18
# EXERCISE: ex2
# WHAT: per_example_grad_norms loops over `range(len(leaves) - 1)`, an off-by-one that leaves the last leaf in tree order (layer3's weight gradient) out of every norm.
# SHOULD-SAY: per_example_grads is right (vmap over grad, leading axis B, matches per-example gradients) and the index is a Python int, but the norms miss one leaf: the loop stops one short and never adds layer3/w, so norms are too small and the argmax can pick the wrong example; iterate over all leaves (for leaf in leaves) or use optax.tree.norm / a tree reduction.
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

    def loss_one(p, xi, yi):
        return loss_fn(p, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))

    return jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    leaves = jax.tree.leaves(grads)
    total = jnp.zeros(leaves[0].shape[0])
    for i in range(len(leaves) - 1):
        g = leaves[i]
        total = total + jnp.sum(jnp.square(g.reshape(g.shape[0], -1)), axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(jnp.argmax(norms))
