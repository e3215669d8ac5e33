# BLIND-SET: 26
# EXERCISE: ex2
# WHAT: per_example_grads runs the vmapped gradient on two halves of the batch (jnp.split(x, 2)) "to halve peak memory" and concatenates the results; right for every even batch size, but an odd B (a batch of one included) raises ValueError in jnp.split, so per_example_grads and largest_gradient_example fail there.
# SHOULD-SAY: per_example_grads raises for odd batch sizes (B = 1, 3, ...) because jnp.split(x, 2) needs B divisible by 2; vmap over the whole batch at once (or chunk in a way that handles a remainder, e.g. jnp.array_split).
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

    grad_fn = jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))
    # two halves so the per-example gradients of a big batch fit in memory
    halves = [grad_fn(params, xh, yh) for xh, yh in zip(jnp.split(x, 2), jnp.split(y, 2))]
    return jax.tree.map(lambda *parts: jnp.concatenate(parts, axis=0), *halves)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
