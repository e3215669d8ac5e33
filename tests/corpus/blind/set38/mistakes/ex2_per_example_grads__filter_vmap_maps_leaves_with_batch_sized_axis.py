# BLIND-SET: 38
# EXERCISE: ex2
# WHAT: per_example_grads builds vmap's in_axes like a hand-rolled eqx.filter_vmap: it maps every array leaf of (params, x, y) whose leading axis has length B, so when B equals a layer width some params leaves are sliced per example. At B = 10 layer3.b is mapped (wrong values on every leaf, and that leaf comes back (10,) instead of (10, 10)), at B = 128 and 256 a weight matrix is mapped and the call raises a shape error; other batch sizes are correct.
# SHOULD-SAY: vmap must map only the batch (x and y) and broadcast params (in_axes=(None, 0, 0)). Your automatic in_axes also maps any params leaf whose first dimension happens to equal the batch size (layer3.b at B = 10, layer2.b/layer3.w at B = 128, ...), which gives wrong gradients or a shape error for those batch sizes. Spell the in_axes out explicitly.
"""Exercise 2: per-example gradients with jax.vmap, Equinox style (filter_vmap-like in_axes)."""

import jax
import jax.numpy as jnp


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes; ``y`` is int32 ``(B,)``."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _is_array(leaf):
    return isinstance(leaf, (jax.Array, jnp.ndarray))


def _batched_in_axes(tree, batch_size):
    """Like eqx.filter_vmap: map every array leaf that carries the batch axis, broadcast the rest."""
    return jax.tree.map(
        lambda leaf: 0 if _is_array(leaf) and leaf.ndim > 0 and leaf.shape[0] == batch_size else None,
        tree,
    )


def _filter_vmap(fn, *args):
    batch_size = args[1].shape[0]
    in_axes = tuple(_batched_in_axes(arg, batch_size) for arg in args)
    return jax.vmap(fn, in_axes=in_axes)(*args)


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on a leading axis."""

    def example_loss(params, xi, yi):
        return loss_fn(params, xi[None], yi[None])

    return _filter_vmap(jax.grad(example_loss), params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient (weights and biases)."""
    leaves = [g for g in jax.tree.leaves(grads) if _is_array(g)]
    squares = [jnp.sum(jnp.reshape(g, (g.shape[0], -1)) ** 2, axis=1) for g in leaves]
    return jnp.sqrt(sum(squares))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm, as a Python int."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
