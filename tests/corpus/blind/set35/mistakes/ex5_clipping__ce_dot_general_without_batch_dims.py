# BLIND-SET: 35
# EXERCISE: ex5
# WHAT: loss_fn picks the label log-probabilities with lax.dot_general(logp, onehot, (((1,), (1,)), ((), ()))), contracting the class axis but declaring no batch dimension, so it builds the (B, B) matrix logp[b] . onehot[d] and averages all of it: every example is scored against every other example's label. The loss returned by the step and its gradients (hence the new params and Adam state) are wrong for batches of more than one example.
# SHOULD-SAY: The batch axis has to be a batch dimension of the dot_general: (((1,), (1,)), ((0,), (0,))) gives one log-probability per example. Without it the contraction forms all B x B pairs and mixes labels across examples.
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
    logp = jax.nn.log_softmax(forward(params, x))
    onehot = jax.nn.one_hot(y, 10, dtype=logp.dtype)
    picked = lax.dot_general(logp, onehot, (((1,), (1,)), ((), ())))
    return -jnp.mean(picked)


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
