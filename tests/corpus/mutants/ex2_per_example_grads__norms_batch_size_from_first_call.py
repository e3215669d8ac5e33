"""per_example_grad_norms keeps the batch size of its first call and reshapes every later tree's leaves to that
many rows: right on every tree of that size, wrong (or failing) on a tree of one example and on one of 300. The
report measures both and says the norms are right for some batch sizes only."""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex2.norms", "mistake": "ex2.norms_batch_size_capped", "max_failing": 2,
          "also": ["ex2.largest"], "hint": "for any batch size"}


_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm
_ROWS = []


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
    return jax.vmap(jax.grad(lambda p, xi, yi: loss_fn(p, xi[None], yi[None])), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """L2 norm of each example's gradient across every leaf."""
    if not _ROWS:
        _ROWS.append(jax.tree_util.tree_leaves(grads)[0].shape[0])
    leaves = [leaf.reshape(_ROWS[0], -1) for leaf in jax.tree_util.tree_leaves(grads)]
    return jnp.sqrt(sum(jnp.sum(leaf ** 2, axis=1) for leaf in leaves))


def largest_gradient_example(params, x, y):
    """Index of the example with the largest gradient norm, as a Python int."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
