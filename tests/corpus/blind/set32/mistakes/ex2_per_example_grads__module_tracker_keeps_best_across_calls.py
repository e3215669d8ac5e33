# BLIND-SET: 32
# EXERCISE: ex2
# WHAT: largest_gradient_example feeds the norms to a module-level ArgmaxTracker instance created once at import; it only replaces its remembered best when a norm beats the best seen in any earlier call. The first call is right; on a later batch whose largest norm is smaller than an earlier batch's, it returns the stale index from that earlier batch (possibly not even a valid index for the new batch).
# SHOULD-SAY: largest_gradient_example remembers the best example across calls: _TRACKER is a single ArgmaxTracker made at import and never reset, so the answer depends on earlier batches. Use a fresh tracker per call (or simply int(jnp.argmax(norms))).
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
    return jax.vmap(_tree_norm)(grads)


class ArgmaxTracker:
    """Keeps the index of the largest value seen so far."""

    def __init__(self):
        self.best_index = -1
        self.best_value = float("-inf")

    def update(self, values):
        index = int(jnp.argmax(values))
        value = float(values[index])
        if value > self.best_value:
            self.best_index, self.best_value = index, value
        return self.best_index


_TRACKER = ArgmaxTracker()


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return _TRACKER.update(per_example_grad_norms(per_example_grads(params, x, y)))
