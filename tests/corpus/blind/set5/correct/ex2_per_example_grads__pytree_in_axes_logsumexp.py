# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: the per-example loss is written for one unbatched example as logsumexp(logits) - logits[y] (the same cross-entropy), vmapped over jax.grad with a full pytree in_axes spec (None for every params leaf); the norms vmap a per-example sqrt of summed jnp.vdot over the leaves.
# SHOULD-SAY: full marks
"""Exercise 2: per-example gradients with an explicit pytree in_axes."""

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


def _example_loss(params, xi, yi):
    """Cross-entropy of one unbatched example: -log softmax(logits)[yi]."""
    logits = forward(params, xi)  # (10,)
    return jax.nn.logsumexp(logits) - logits[yi]


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    params_axes = jax.tree.map(lambda _: None, params)
    return jax.vmap(jax.grad(_example_loss), in_axes=(params_axes, 0, 0))(params, x, y)


def _global_norm(tree):
    return jnp.sqrt(sum(jnp.vdot(leaf, leaf) for leaf in jax.tree.leaves(tree)))


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_global_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))).item()
