# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: Reshapes the batch to B batches of one (x[:, None], y[:, None]) and vmaps jax.grad(loss_fn) directly over them, with no per-example wrapper.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients by vmapping grad over batches of one."""

import jax
import jax.numpy as jnp
import optax


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
    grad_fn = jax.grad(loss_fn)
    return jax.vmap(grad_fn, in_axes=(None, 0, 0))(params, x[:, None, :], y[:, None])


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(optax.global_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(norms.argmax())
