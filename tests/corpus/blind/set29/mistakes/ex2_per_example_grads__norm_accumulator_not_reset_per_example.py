# BLIND-SET: 29
# EXERCISE: ex2
# WHAT: the norms are computed in a lax.fori_loop over examples that carries the running sum of squares in the loop carry and never resets it, so entry i is the square root of the summed squares of examples 0..i (a cumulative norm); the norms increase along the batch and largest_gradient_example always returns B - 1.
# SHOULD-SAY: The sum of squares must start from zero for every example; carried across iterations it accumulates the previous examples' gradients, so entry i is sqrt(sum over examples 0..i). Reset the accumulator inside the loop body (total = 0.0 for each i), or drop the loop: sum each leaf's squares over all axes but the first and take the square root (e.g. jax.vmap(optax.tree.norm)(grads)).
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


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

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree.leaves(grads)
    B = leaves[0].shape[0]

    def body(i, carry):
        norms, total = carry
        for g in leaves:  # weights and biases of every layer
            total = total + jnp.sum(g[i] ** 2)
        return norms.at[i].set(jnp.sqrt(total)), total

    norms, _ = jax.lax.fori_loop(0, B, body, (jnp.zeros(B, jnp.float32), jnp.float32(0.0)))
    return norms


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
