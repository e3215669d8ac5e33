# BLIND-SET: 39
# EXERCISE: ex2
# WHAT: largest_gradient_example finds the maximum with a jax.lax.fori_loop whose carry is (best_index, best_norm) and a jax.lax.cond per step; the "not larger" branch returns (best_index, norm_i) instead of (best_index, best_norm), so the running best is overwritten by the current norm every step. The returned index is the last i whose norm exceeds the previous example's norm (0 if none), not the argmax. Gradients and norms are correct.
# SHOULD-SAY: largest_gradient_example does not return the largest norm: in your fori_loop the lax.cond branch for "this norm is not larger" replaces the carried best norm with the current one, so you end up comparing each norm only with its predecessor. Keep the carry unchanged in that branch (return (best_i, best_n)), or simply use int(jnp.argmax(norms)).
"""Exercise 2: per-example gradients; the argmax as a lax.fori_loop reduction."""

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


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""

    def single(params, xi, yi):
        return loss_fn(params, jnp.expand_dims(xi, 0), jnp.expand_dims(yi, 0))

    return jax.vmap(jax.grad(single), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    leaves = jax.tree_util.tree_leaves(grads)
    total = sum(jnp.sum(jnp.square(g), axis=tuple(range(1, g.ndim))) for g in leaves)
    return jnp.sqrt(total)


def _argmax_loop(norms):
    def body(i, carry):
        best_i, best_n = carry
        n = norms[i]
        return jax.lax.cond(
            n > best_n,
            lambda: (i, n),
            lambda: (best_i, n),
        )

    init = (jnp.int32(0), norms[0])
    best_i, _ = jax.lax.fori_loop(1, norms.shape[0], body, init)
    return best_i


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    norms = per_example_grad_norms(per_example_grads(params, x, y))
    return int(_argmax_loop(norms))
