# BLIND-SET: 44
# EXERCISE: ex5
# WHAT: Correct. loss_fn builds the one-hot batch-first by broadcasting, y[:, None] == jnp.arange(10)[None, :] of shape (B, 10), takes log-probs as logits - logsumexp(logits, axis=-1, keepdims=True), and averages jnp.einsum("bc,bc->b") over the batch, which equals the lesson's loss to float32 rounding. make_optimizer is optax.chain(clip_by_global_norm, adam). The jitted step uses jax.value_and_grad at the incoming params, optimizer.update(grads, state, params), and jax.tree.map(jnp.add) to apply the updates.
# SHOULD-SAY: Nothing to fix: the optimizer clips the global norm before Adam, and the jitted step returns the updated params, the new state and the loss at the incoming params.
"""Exercise 5: gradient clipping chained before Adam (shape-first version)."""

import jax
import jax.numpy as jnp
import optax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)                                                    # (B, 10)
    logp = logits - jax.scipy.special.logsumexp(logits, axis=-1, keepdims=True)     # (B, 10) - (B, 1)
    onehot = (y[:, None] == jnp.arange(logits.shape[-1])[None, :]).astype(logp.dtype)  # (B, 10)
    return -jnp.mean(jnp.einsum("bc,bc->b", logp, onehot), axis=0)                 # (B,) -> ()


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return jax.tree.map(jnp.add, params, updates), opt_state, loss

    return step
