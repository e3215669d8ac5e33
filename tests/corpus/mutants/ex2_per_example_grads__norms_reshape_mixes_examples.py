"""Each leaf flattened with reshape(-1, B) instead of reshape(B, -1): every "example" column mixes examples.

The shapes are right and the squared norms add up to the right total, so ex2.norms measures that the values
were shared out among the examples wrongly. largest_gradient_example uses these norms: ex2.largest is not
judged while the norms are wrong."""

EXPECT = {"check": "ex2.norms", "mistake": "ex2.norms_across_examples", "hint": "batch axis first",
          "max_failing": 1, "also": ["ex2.largest"]}

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
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    flat = jnp.concatenate([leaf.reshape(-1, batch) for leaf in leaves])
    return jnp.sqrt(jnp.sum(flat**2, axis=0))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
