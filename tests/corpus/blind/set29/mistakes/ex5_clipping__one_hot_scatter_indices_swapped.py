# BLIND-SET: 29
# EXERCISE: ex5
# WHAT: the training step builds its own one-hot targets with Y.at[y, jnp.arange(B)].set(1.0), the (row, column) indices swapped; the ones land at (label, example) positions, and the ones whose column index is 10 or more (or row index B or more) are silently dropped, so the step's loss, gradients, new params and new state are all wrong.
# SHOULD-SAY: For a (B, 10) target matrix the first index is the example and the second the class: Y.at[jnp.arange(B), y].set(1.0). JAX drops out-of-range scatter indices without an error, which hides the swap. Simpler: use the lesson's loss_fn with jax.nn.one_hot(y, 10).
"""Exercise 5 (reference): gradient clipping chained before Adam."""

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
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    def batch_loss(params, x, y):
        logp = jax.nn.log_softmax(forward(params, x))
        B = x.shape[0]
        # one-hot targets: Y[i, y[i]] = 1
        Y = jnp.zeros_like(logp).at[y, jnp.arange(B)].set(1.0)
        return -jnp.sum(Y * logp) / B

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(batch_loss)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
