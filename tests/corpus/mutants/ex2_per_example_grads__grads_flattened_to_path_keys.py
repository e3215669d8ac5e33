"""per_example_grads returns a flat dict keyed "layer1/w", ... (path-joined names, as a logging helper writes them)
instead of the params-shaped tree; the norms and the index read the leaves alike either way."""

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
        return loss_fn(params, xi[None], yi[None])

    grads = jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)
    return {"/".join(path): leaf for path, leaf in _walk(grads, ())}


def _walk(tree, prefix):
    for name, value in tree.items():
        if isinstance(value, dict):
            yield from _walk(value, prefix + (name,))
        else:
            yield prefix + (name,), value


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves = jax.tree_util.tree_leaves(grads)
    return jnp.sqrt(sum(jnp.sum(leaf.reshape(leaf.shape[0], -1) ** 2, axis=1) for leaf in leaves))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

EXPECT = {'check': 'ex2.shapes', 'mistake': 'ex2.tree_restructured', 'max_failing': 1, 'hint': 'shaped like params'}
