# BLIND-SET: 39
# EXERCISE: ex2
# WHAT: The loss is rewritten as a jax.custom_vjp mean cross-entropy on the logits whose backward rule returns g * (softmax - onehot) / logits.shape[-1] (the 10 classes) instead of / logits.shape[0] (the batch). The loss value is unchanged, but every per-example gradient (batch of one) comes out divided by 10; the norms are 10x too small, while the argmax index is unchanged.
# SHOULD-SAY: Your per-example gradients are exactly 10 times too small on every leaf. The backward rule of your custom_vjp cross-entropy divides by logits.shape[-1] (the number of classes) but the loss is a mean over the batch axis, logits.shape[0]. Divide by the batch size (or drop the custom_vjp and let jax.grad differentiate the given loss_fn).
"""Exercise 2: per-example gradients, with a fused custom_vjp cross-entropy."""

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
    """Mean softmax cross-entropy, with a fused softmax-minus-target backward."""
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * onehot, axis=-1))


def _mean_xent_fwd(logits, onehot):
    return _mean_xent(logits, onehot), (jax.nn.softmax(logits), onehot)


def _mean_xent_bwd(res, g):
    probs, onehot = res
    n = probs.shape[-1]
    return g * (probs - onehot) / n, None


_mean_xent.defvjp(_mean_xent_fwd, _mean_xent_bwd)


def _fused_loss(params, x, y):
    return _mean_xent(forward(params, x), jax.nn.one_hot(y, 10))


def per_example_grads(params, x, y):
    """The gradient of the loss on each example alone, stacked on axis 0."""

    def one(params, xi, yi):
        return jax.grad(_fused_loss)(params, xi[None, :], yi[None])

    return jax.vmap(one, in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """The global L2 norm of each example's gradient."""
    sq = jax.tree_util.tree_map(lambda g: jnp.sum(g.reshape(g.shape[0], -1) ** 2, axis=1), grads)
    return jnp.sqrt(jax.tree_util.tree_reduce(jnp.add, sq))


def largest_gradient_example(params, x, y):
    """The index of the example with the largest gradient norm."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
