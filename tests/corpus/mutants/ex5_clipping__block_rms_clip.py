"""Clipping by each leaf's RMS (optax.clip_by_block_rms) instead of the global norm, then Adam.

At the default max_norm=1 no leaf's RMS reaches 1, so the updates are plain Adam's across the spike: ex5.chain
says so (nothing clipped it), naming no known mistake. With max_norm=0.3 the RMS clip acts, so ex5.hyperparams
fails too; its hint must not claim the arguments are ignored (both are used): it restates what they must give.
"""

EXPECT = {"check": "ex5.chain", "mistake": "", "hint": "plain Adam updates", "max_failing": 2,
          "also": ["ex5.hyperparams"]}

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
    return optax.chain(optax.clip_by_block_rms(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
