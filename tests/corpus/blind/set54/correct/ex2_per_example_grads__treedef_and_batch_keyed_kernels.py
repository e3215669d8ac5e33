# BLIND-SET: 54
# EXERCISE: ex2
# WHAT: Correct. jit(vmap(grad)) is built at import; norm kernels are cached in a dict keyed by (treedef, leaf shapes) and compute the sum of squares per example with an einsum over a (B, -1) view of each leaf; largest_gradient_example runs one jitted fused grads+norms+argmax call, with the compiled function cached, and converts with int().
# SHOULD-SAY: Nothing to fix: per_example_grads, per_example_grad_norms and largest_gradient_example meet the contract (full marks).
"""Exercise 2: per-example gradients with jax.vmap, every kernel compiled once."""

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


def _one(params, xi, yi):
    return loss_fn(params, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))


_GRADS = jax.jit(jax.vmap(jax.grad(_one), in_axes=(None, 0, 0)))


def per_example_grads(params, x, y):
    """Gradient of the loss on each example alone, stacked on a leading axis."""
    return _GRADS(params, x, y)


def _sum_squares(leaves):
    rows = [leaf.reshape(leaf.shape[0], -1) for leaf in leaves]
    return sum(jnp.einsum("bi,bi->b", r, r) for r in rows)


_NORM_KERNELS = {}


def per_example_grad_norms(grads):
    """Global L2 norm of each example's gradient over every leaf."""
    leaves, treedef = jax.tree.flatten(grads)
    cache_key = (treedef, tuple(tuple(leaf.shape) for leaf in leaves))
    kernel = _NORM_KERNELS.get(cache_key)
    if kernel is None:
        kernel = _NORM_KERNELS[cache_key] = jax.jit(lambda ls: jnp.sqrt(_sum_squares(ls)))
    return kernel(leaves)


@jax.jit
def _argmax_norm(params, x, y):
    g = jax.vmap(jax.grad(_one), in_axes=(None, 0, 0))(params, x, y)
    return jnp.argmax(jnp.sqrt(_sum_squares(jax.tree.leaves(g))))


def largest_gradient_example(params, x, y):
    """Index of the example whose gradient has the largest norm."""
    return int(_argmax_norm(params, x, y))
