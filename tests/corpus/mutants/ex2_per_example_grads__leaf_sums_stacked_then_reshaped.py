"""per_example_grad_norms stacks the leaves' per-example sums of squares on axis 0, (L, B), and reshapes the
stack to (B, L) to sum each example's row: the reshape regroups the values leaf by leaf, so each "row" holds
several examples' sums of one or two leaves. The squared norms keep the batch's total.
"""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex2.norms", "mistake": "ex2.norms_across_examples", "hint": "stack them on axis 1",
          "max_failing": 1, "also": ["ex2.largest"]}

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
        logits = forward(params, xi[None])                 # (1, 10)
        targets = jax.nn.one_hot(yi[None], 10)
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * targets, axis=-1))

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree_util.tree_leaves(grads)
    batch = leaves[0].shape[0]
    sums = jnp.stack([jnp.sum(leaf.reshape(batch, -1) ** 2, axis=1) for leaf in leaves])  # (L, B)
    return jnp.sqrt(sums.reshape(batch, -1).sum(axis=1))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
