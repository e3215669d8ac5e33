# BLIND-SET: 41
# EXERCISE: ex2
# WHAT: The per-example loss writes the log-sum-exp straight from the textbook definition, log sum_j exp(z_j), with no max shift. When every logit is below about 88 it matches the reference. If an example has a logit above about 88.7, exp overflows to inf in float32: that example's loss is inf, its gradient is NaN on every leaf, its norm is NaN, and largest_gradient_example returns the index of the first NaN norm (jnp.argmax treats NaN as the maximum). Inputs or weights a few times larger than the lesson's are enough to trigger it.
# SHOULD-SAY: On batches with large logits, the gradients (and so the norms) of some examples are NaN instead of finite values. The cause is that your cross-entropy computes log(sum(exp(z))) directly, and exp overflows for logits above about 88. Subtract the row maximum first, m + log(sum(exp(z - m))), or use jax.nn.logsumexp / jax.nn.log_softmax.
"""Exercise 2: per-example gradients with jax.vmap (Goodfellow et al., ch. 6 notation).

For a minibatch of m examples, the per-example gradients g^(i) = grad_theta L(f(x^(i); theta), y^(i))
are the rows of the m x |theta| Jacobian of the vector of per-example losses. The global
norm of g^(i) is the l2 norm of theta's gradient stacked into one vector.
"""

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


def _logsumexp(z):
    """log sum_j exp(z_j): the definition of the softmax normaliser."""
    return jnp.log(jnp.sum(jnp.exp(z), axis=-1))


def _example_loss(params, x_i, y_i):
    """L(f(x^(i); theta), y^(i)) = logsumexp(z) - z_y for one example."""
    z = forward(params, x_i[None, :])[0]
    return _logsumexp(z) - jnp.sum(z * jax.nn.one_hot(y_i, 10))


def per_example_grads(params, x, y):
    """Rows of the Jacobian of the per-example losses: one gradient pytree slice per example."""
    return jax.vmap(jax.grad(_example_loss), in_axes=(None, 0, 0))(params, x, y)


def per_example_grad_norms(grads):
    """||g^(i)||_2 over the stacked vector of every leaf (weights and biases)."""
    leaves = jax.tree.leaves(grads)
    batch = leaves[0].shape[0]
    stacked = jnp.concatenate([leaf.reshape(batch, -1) for leaf in leaves], axis=1)
    return jnp.sqrt(jnp.sum(stacked * stacked, axis=1))


def largest_gradient_example(params, x, y):
    """argmax_i ||g^(i)||_2 as a Python int."""
    return int(jnp.argmax(per_example_grad_norms(per_example_grads(params, x, y))))
