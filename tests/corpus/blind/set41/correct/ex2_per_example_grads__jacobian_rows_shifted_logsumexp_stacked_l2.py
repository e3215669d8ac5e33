# BLIND-SET: 41
# EXERCISE: ex2
# WHAT: Correct. The per-example loss is the textbook softmax cross-entropy with the log-sum-exp written out: m + log sum exp(z - m) - z_y, with m = max_j z_j under stop_gradient (this changes nothing, since the LSE's gradient does not depend on m). The rows of the Jacobian, one per example, come from jax.vmap(jax.grad(.), in_axes=(None, 0, 0)). The norms are the l2 norms of each example's stacked vector (every leaf flattened and concatenated), and the index is int(argmax).
# SHOULD-SAY: Nothing to fix: every ex2 check passes. The gradients, norms and index match the reference to float tolerance.
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
    """log sum_j exp(z_j), shifted by m = max_j z_j so that no exp overflows."""
    m = jax.lax.stop_gradient(jnp.max(z, axis=-1, keepdims=True))
    return (m + jnp.log(jnp.sum(jnp.exp(z - m), axis=-1, keepdims=True)))[..., 0]


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
