"""The single-example loss builds its targets with one_hot(y, len(logits)): the number of rows, 1 for an example
under vmap, not the 10 classes. Only label-0 examples keep a loss; the others get zero gradients."""

import jax
import jax.numpy as jnp


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
        logits = forward(params, xi[None])
        targets = jax.nn.one_hot(yi[None], len(logits))
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * targets, axis=-1))

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree_util.tree_leaves(grads)
    return jnp.sqrt(sum(jnp.sum(leaf.reshape(leaf.shape[0], -1) ** 2, axis=1) for leaf in leaves))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

EXPECT = {'check': 'ex2.values', 'mistake': 'ex2.targets_too_narrow', 'max_failing': 1, 'also': ['ex2.shapes', 'ex2.vectorised', 'ex2.largest', 'ex2.jit', 'ex2.params_unchanged'], 'hint': 'fewer classes'}
