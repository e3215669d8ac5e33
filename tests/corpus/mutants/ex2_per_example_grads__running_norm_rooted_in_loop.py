"""per_example_grad_norms keeps a running norm over the leaves and takes its square root after adding each leaf's
sum of squares: the earlier leaves are rooted again and again.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {'check': 'ex2.norms', 'mistake': 'ex2.root_per_leaf', 'hint': 'one square root of the total', 'max_failing': 1, 'also': ['ex2.largest']}

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
    norm = 0.0
    for leaf in jax.tree_util.tree_leaves(grads):
        norm = jnp.sqrt(norm + jnp.sum(leaf.reshape(leaf.shape[0], -1) ** 2, axis=1))
    return norm


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
