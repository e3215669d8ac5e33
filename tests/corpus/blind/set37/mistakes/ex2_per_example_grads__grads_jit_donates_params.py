# BLIND-SET: 37
# EXERCISE: ex2
# WHAT: per_example_grads is jitted with donate_argnums=(0,) ("params are the big buffers"); XLA reuses any params buffer whose size matches a per-example gradient leaf, so the caller's params are deleted: all six leaves at B = 1, layer2.w and layer3.w at B = 128 (the lesson batch), layer2.w at B = 256 (values are right, but per_example_grads and largest_gradient_example leave params unusable and the next use raises).
# SHOULD-SAY: Donating params destroys the caller's model: donate_argnums lets XLA overwrite any input buffer that fits an output (e.g. the (128, 10) layer3 weights and the (128, 10) bias gradients at B = 128). per_example_grads only reads params, so it must not donate them; drop donate_argnums (plain jax.jit is fine).
"""Exercise 2 (reference): per-example gradients with jax.vmap over jax.grad."""

import functools

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


# Params are the big buffers: let XLA reuse them instead of allocating new ones.
@functools.partial(jax.jit, donate_argnums=(0,))
def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""

    def single_example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
