# BLIND-SET: mistake
# EXERCISE: ex2
# WHAT: per_example_grad_norms squares the leaves of the `grads` dict in place (layer[name] = layer[name] ** 2) and sums them, numpy style. The returned norms are right, but the caller's grads pytree now holds squared gradients: calling the function twice, or using grads afterwards, gives wrong results (second call returns the norm of the squares).
# SHOULD-SAY: the 'leaves its inputs unmodified' check fails for per_example_grad_norms (its argument's leaves were replaced by their squares); a repeated call disagrees with the first. Fix: compute sums of squares into new arrays without writing into grads. Gradients, first-call norms and the index pass.
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
    total = 0.0
    for layer in grads.values():
        for name in layer:
            layer[name] = layer[name] ** 2  # square in place, numpy style
            total = total + layer[name].reshape(layer[name].shape[0], -1).sum(axis=1)
    return jnp.sqrt(total)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
