"""The squares in the norms are typed 2 ** g where g ** 2 belongs: each entry contributes 2 to the power of
itself, 1 for a zero, so every norm is about the square root of the number of entries. The report reads what is
summed per entry off gradients of one or two entries.
"""


import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex2.norms", "mistake": "", "hint": "another function of each entry", "max_failing": 1, "also": ["ex2.largest"]}


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
    squares = jax.tree.map(lambda g: jnp.sum((2 ** g).reshape(g.shape[0], -1), axis=1), grads)
    return jnp.sqrt(sum(jax.tree.leaves(squares)))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
