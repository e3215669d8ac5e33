# BLIND-SET: correct
# EXERCISE: ex2
# WHAT: Each example gets its own broadcast copy of params; jax.grad of the sum of the vmapped per-example losses with respect to those copies gives every example's gradient in one vectorised call.
# SHOULD-SAY: full marks for ex2; every check of ex2 passes.
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
    copies = jax.tree.map(lambda p: jnp.broadcast_to(p, (batch,) + p.shape), params)

    def total_loss(copies):
        def one(p, xi, yi):
            return loss_fn(p, xi[None], yi[None])

        return jnp.sum(jax.vmap(one)(copies, x, y))

    # d/d(copy_i) of sum_j loss_j(copy_j) is the gradient of example i alone
    return jax.grad(total_loss)(copies)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
