"""per_example_grad_norms writes each example's norm into a zero array of 256 rows made at import, then returns
the first B rows: a batch of more than 256 examples loses the norms past the 256th (the array has only 256 rows).
Every graded batch is smaller; the report measures a tree of 300 examples and says how many norms came back."""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex2.norms", "mistake": "ex2.norms_batch_size_capped", "max_failing": 1,
          "hint": "for any batch size"}


_tree_norm = optax.tree.norm if hasattr(optax, "tree") else optax.global_norm
_ROWS = jnp.zeros(256)


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
    norms = jax.vmap(_tree_norm)(grads)
    b = norms.shape[0]
    return _ROWS.at[:b].set(norms[:256])[:b]


def largest_gradient_example(params, x, y):
    """Index of the example with the largest gradient norm, as a Python int."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
