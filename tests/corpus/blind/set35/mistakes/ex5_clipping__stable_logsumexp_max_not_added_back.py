# BLIND-SET: 35
# EXERCISE: ex5
# WHAT: loss_fn writes a "numerically stable" log-softmax by hand: it subtracts the row max m (under lax.stop_gradient) inside the exponential but never adds it back to the log-sum-exp, so every log-probability is off by +m and the loss the step returns is the true loss minus the mean row-max logit. (With m stop-gradiented the gradients, and so the updates, happen to be unchanged; the reported loss is wrong.)
# SHOULD-SAY: logsumexp(z) = m + log(sum(exp(z - m))); the shift must be added back (or use jax.nn.log_softmax / jax.nn.logsumexp). As written the returned loss is not the cross-entropy at the incoming params.
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import jax
import jax.numpy as jnp
import optax
from jax import lax


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    m = lax.stop_gradient(lax.reduce(logits, -jnp.inf, lax.max, (1,)))
    lse = lax.log(lax.reduce(lax.exp(logits - m[:, None]), 0.0, lax.add, (1,)))
    logp = logits - lse[:, None]
    return -jnp.mean(jnp.sum(logp * jax.nn.one_hot(y, 10), axis=-1))


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
