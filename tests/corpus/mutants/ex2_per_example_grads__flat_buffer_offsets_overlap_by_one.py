"""per_example_grad_norms packs each example's leaves into one flat buffer, but advances the offset by a leaf's
size minus one (the last index written taken for the next start): each leaf's last entry is overwritten by the
next leaf's first, so those entries never reach the norm."""

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

    return jax.vmap(jax.grad(single_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf, from one flat buffer per example."""
    leaves = jax.tree_util.tree_leaves(grads)
    batch = leaves[0].shape[0]
    sizes = [leaf[0].size for leaf in leaves]
    buffer = jnp.zeros((batch, sum(sizes)))
    offset = 0
    for leaf, size in zip(leaves, sizes):
        buffer = buffer.at[:, offset:offset + size].set(leaf.reshape(batch, -1))
        offset += size - 1  # the last index written, taken for the next start
    return jnp.sqrt(jnp.sum(buffer ** 2, axis=1))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))

EXPECT = {'check': 'ex2.norms', 'mistake': 'ex2.norm_entries_lost', 'max_failing': 1, 'hint': 'count for nothing in the norm'}
