# BLIND-SET: 41
# EXERCISE: ex2
# WHAT: The log-sum-exp is computed as jnp.log1p(sum_j exp(z_j - m)) + m (log1p used 'for accuracy'), which is log(1 + sum exp) rather than log(sum exp). The loss becomes log(exp(m) + sum_j exp(z_j)) - z_y, so the softmax inside the gradient gets an extra phantom class of logit m. Every per-example gradient is wrong (dL/dz_j = exp(z_j)/(exp(m) + sum exp(z)) - onehot_j, not softmax_j - onehot_j), and so are the norms, often the argmax too.
# SHOULD-SAY: Your per-example gradients disagree with the gradient of the mean cross-entropy on each single example, on every leaf. The cause is the log-sum-exp: jnp.log1p(s) is log(1 + s), so log1p(sum exp(z - m)) + m is not logsumexp(z), and it adds a phantom extra class to the softmax. Use jnp.log(sum(exp(z - m))) + m, or jax.nn.logsumexp.
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
    # log1p is the accurate log near 1 (Goodfellow et al., sec. 4.1).
    return (m + jnp.log1p(jnp.sum(jnp.exp(z - m), axis=-1, keepdims=True)))[..., 0]


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
