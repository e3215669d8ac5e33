# BLIND-SET: 16
# EXERCISE: ex2
# WHAT: per_example_grads gives every example its own broadcast copy of the params and takes jax.grad of the batch MEAN loss with respect to those copies, so each slice is the example's gradient divided by the batch size B.
# SHOULD-SAY: the result has the right pytree structure and leading batch axis, and the largest-gradient index is still right, but every per-example gradient (and so every norm) is 1/B of the true value, because the gradient is of the batch-mean loss, to which each example contributes only 1/B; differentiate the loss of each example alone (jax.vmap over jax.grad of a single-example loss), or multiply by B.
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
    batch = x.shape[0]
    # one copy of the params per example; d(loss)/d(copy i) only sees example i
    copies = jax.tree.map(lambda p: jnp.broadcast_to(p, (batch,) + p.shape), params)

    def batch_loss(copies):
        logits = jax.vmap(lambda p, xi: forward(p, xi[None])[0])(copies, x)
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))

    return jax.grad(batch_loss)(copies)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
