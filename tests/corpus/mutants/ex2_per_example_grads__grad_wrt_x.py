"""jax.grad(..., argnums=1): each example's gradient with respect to its input x, not to params.

The result is one array shaped like x, not a pytree shaped like params: ex2.shapes and ex2.values measure that
it equals each example's gradient with respect to x and say so. The norms and the index are then of those
gradients, so ex2.largest, whose index is their argmax, is not judged, nor are the checks that need
right values."""

EXPECT = {"check": "ex2.shapes", "mistake": "ex2.grad_wrt_x", "hint": "argnums=0", "max_failing": 2,
          "also": ["ex2.values", "ex2.largest", "ex2.vectorised", "ex2.jit", "ex2.params_unchanged"]}

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

    return jax.vmap(jax.grad(single_example_loss, argnums=1), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    return jax.vmap(_tree_norm)(grads)


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
