"""The given forward was edited to end in a ReLU, applied to every layer in one loop, logits included.
per_example_grads is right, but it differentiates the module's loss_fn, whose logits are no longer the lesson's. The
report measures the module's forward as the lesson's logits with the negative ones set to 0, and says nothing of the
loss, which is the given one.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex2.values", "mistake": "ex2.given_forward_changed", "max_failing": 1,
          "also": ["ex2.shapes", "ex2.vectorised", "ex2.jit", "ex2.params_unchanged"],
          "hint": "given code"}


# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = x
    for name in sorted(params):
        h = jax.nn.relu(h @ params[name]["w"] + params[name]["b"])
    return h


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


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
