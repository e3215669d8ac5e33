# BLIND-SET: 57
# EXERCISE: ex5
# WHAT: make_optimizer is right. make_train_step differentiates its own one-pass loss: logp = z - logsumexp(z), then -mean(jnp.take(logp, y, axis=-1)) to pick each label's log-probability without a one-hot. jnp.take along the last axis with a (B,) index returns a (B, B) matrix logp[i, y[j]], so the loss averages every example's log-probability of every label in the batch. The returned loss and the gradients are wrong whenever the batch has more than one distinct label: loss 3.178 vs 3.206 (B = 128), 3.163 vs 3.400 (B = 32), params off by up to 2e-3 and the Adam state by ~3e-3 to 4e-3 after one step (lr 1e-3). With B = 1, or with every label equal, it matches the reference (within 3e-6).
# SHOULD-SAY: The step's loss is not the lesson's cross-entropy: jnp.take(logp, y, axis=-1) gives a (B, B) matrix (every example scored against every label in the batch), so its mean and its gradients are wrong. Use the given loss_fn with jax.value_and_grad, or gather one entry per row: jnp.take_along_axis(logp, y[:, None], axis=-1) (or logp[jnp.arange(B), y]).
"""Exercise 5: gradient clipping in an optax chain (tuned: jitted step, hoisted transforms)."""

import jax
import jax.numpy as jnp
import optax

# --- Given: the lesson's model and loss ----------------------------------------


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


# --- My code ------------------------------------------------------------------


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def _fused_loss(params, x, y):
    """loss_fn in one pass: log-softmax by subtracting the logsumexp, and the
    label's log-probability gathered directly instead of a (B, 10) one-hot
    multiply-and-sum."""
    z = forward(params, x)
    logp = z - jax.nn.logsumexp(z, axis=-1, keepdims=True)
    return -jnp.mean(jnp.take(logp, y, axis=-1))


# Built once at import instead of on every make_train_step / trace.
_value_and_grad = jax.value_and_grad(_fused_loss)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    update = optimizer.update  # bound once, closed over by the compiled step

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = _value_and_grad(params, x, y)
        updates, opt_state = update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
