# BLIND-SET: 26
# EXERCISE: ex2
# WHAT: per_example_grads builds the one-hot targets once, on its first call, and keeps them in a module-level dict "to avoid recomputing them"; the first batch is right, but later calls reuse the first batch's labels: another batch of the same size gets gradients for the wrong labels, a batch of another size makes vmap raise.
# SHOULD-SAY: only the first call is right: the one-hot targets are cached from the first y and reused for every later batch, so the per-example gradients (and norms, and the largest index) use stale labels, or raise for another batch size; build the targets from the y passed in, on every call (e.g. loss_fn(params, xi[None], yi[None])).
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


_targets_cache = {}  # one-hot targets, built once


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    if "one_hot" not in _targets_cache:
        _targets_cache["one_hot"] = jax.nn.one_hot(y, 10)
    targets = _targets_cache["one_hot"]

    def single_example_loss(params, xi, ti):
        logits = forward(params, xi[None])
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * ti[None], axis=-1))

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, targets)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
