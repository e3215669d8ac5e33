# BLIND-SET: 12
# EXERCISE: ex2
# WHAT: The batch is packed into a dict {"x", "y"} and vmapped with a pytree in_axes spec over jax.grad of a jax.checkpoint-ed single-example loss; norms sum squared leaves over non-batch axes with jax.tree.reduce; the index comes from .argmax().tolist().
# SHOULD-SAY: Everything correct: per-example gradients match leaf by leaf with a leading B axis, computed by vmap over grad (rematerialisation only changes memory, not values); norms cover every leaf and have shape (B,); the index is a Python int; jit-compatible and inputs untouched.
"""Exercise 2: per-example gradients with jax.vmap (batch dict, checkpointed loss)."""

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


@jax.checkpoint
def _example_loss(params, example):
    return loss_fn(params, example["x"][None, :], example["y"][None])


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone."""
    batch = {"x": x, "y": y}
    grad_one = jax.grad(_example_loss)
    return jax.vmap(grad_one, in_axes=(None, {"x": 0, "y": 0}))(params, batch)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    squared = jax.tree.map(lambda g: jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))), grads)
    return jnp.sqrt(jax.tree.reduce(jnp.add, squared))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return norms.argmax().tolist()
