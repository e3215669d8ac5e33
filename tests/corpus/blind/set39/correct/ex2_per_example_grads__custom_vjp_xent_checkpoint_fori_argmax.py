# BLIND-SET: 39
# EXERCISE: ex2
# WHAT: Correct. The per-example loss goes through a jax.custom_vjp mean cross-entropy whose backward rule is g * (softmax - onehot) / batch size, and the forward pass is wrapped in jax.checkpoint; per_example_grads is jax.vmap(jax.grad(...), in_axes=(None, 0, 0)). Norms are sums of squares per leaf from jax.tree_util.tree_map_with_path, reduced with tree_reduce (initializer 0) and square-rooted; the index comes from a lax.fori_loop argmax (first maximum) whose carry is threaded correctly, returned as a Python int.
# SHOULD-SAY: Nothing to fix: gradients match per-example jax.grad leaf by leaf with a leading batch axis, norms cover weights and biases, and the index is a Python int at the largest norm.
"""Exercise 2: per-example gradients with a custom_vjp loss and lax reductions."""

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


@jax.custom_vjp
def _mean_xent(logits, onehot):
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * onehot, axis=-1))


def _mean_xent_fwd(logits, onehot):
    return _mean_xent(logits, onehot), (jax.nn.softmax(logits), onehot)


def _mean_xent_bwd(res, g):
    probs, onehot = res
    return g * (probs - onehot) / probs.shape[0], jnp.zeros_like(onehot)


_mean_xent.defvjp(_mean_xent_fwd, _mean_xent_bwd)


def _example_loss(params, xi, yi):
    logits = jax.checkpoint(forward)(params, xi[None, :])
    return _mean_xent(logits, jax.nn.one_hot(yi[None], 10))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""
    return jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    sq = jax.tree_util.tree_map_with_path(
        lambda path, g: jnp.sum(jnp.square(g).reshape(g.shape[0], -1), axis=1), grads
    )
    return jnp.sqrt(jax.tree_util.tree_reduce(lambda a, b: a + b, sq, initializer=0.0))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))

    def body(i, carry):
        best_i, best_n = carry
        better = norms[i] > best_n
        return jax.lax.cond(better, lambda: (i, norms[i]), lambda: (best_i, best_n))

    best_i, _ = jax.lax.fori_loop(1, norms.shape[0], body, (jnp.int32(0), norms[0]))
    return int(best_i)
