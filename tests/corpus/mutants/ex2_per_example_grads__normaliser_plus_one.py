"""loss_fn writes the log-normaliser out as log(1 + sum(exp(logits))), a 1 too many: the softmax inside its gradient
has an extra class of logit 0, so every per-example gradient is off. The report measures the gradient with respect
to the logits against that loss's."""

import jax
import jax.numpy as jnp
import optax

# optax.tree.norm is the current name; optax.global_norm is the older one.
_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm

EXPECT = {"check": "ex2.values", "mistake": "ex2.other_loss", "hint": "a loss of your own", "max_failing": 1,
          "also": ["ex2.shapes", "ex2.vectorised", "ex2.jit", "ex2.params_unchanged"]}


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes, its log-normaliser written out."""
    logits = forward(params, x)
    log_norm = jnp.log(1.0 + jnp.sum(jnp.exp(logits), axis=-1))
    return jnp.mean(log_norm - jnp.sum(logits * jax.nn.one_hot(y, 10), axis=-1))


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
