# BLIND-SET: 26
# EXERCISE: ex2
# WHAT: per_example_grad_norms adds a guard `if jnp.any(jnp.isnan(norms)): norms = jnp.nan_to_num(norms)`; eagerly the norms are unchanged (there are no NaNs), but under jax.jit the Python if on a traced array raises TracerBoolConversionError, so the norms cannot be computed inside jit.
# SHOULD-SAY: per_example_grad_norms fails under jax.jit because a Python `if` tests a traced value (jnp.any(jnp.isnan(norms))); drop the guard or make it unconditional and traceable (jnp.nan_to_num(norms), jnp.where), with no Python branching on array values.
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
    norms = jax.vmap(_tree_norm)(grads)
    if jnp.any(jnp.isnan(norms)):  # one diverged example would hide the argmax
        norms = jnp.nan_to_num(norms)
    return norms


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
