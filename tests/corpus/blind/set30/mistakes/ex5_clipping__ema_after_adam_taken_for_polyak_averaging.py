# BLIND-SET: 30
# EXERCISE: ex5
# WHAT: make_optimizer appends optax.ema(0.999) after Adam, meant as Polyak averaging of the weights; optax.ema averages the *updates* (a second momentum on Adam's output), so the first update matches but every later update is a debiased running mean of past Adam steps and differs from clip-then-Adam (the state also gains an extra slot).
# SHOULD-SAY: optax.ema is a gradient transformation: in a chain it smooths the updates, it does not average parameters. Return exactly optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate)); if you want Polyak-averaged weights, keep them separately (e.g. optax.incremental_update) without changing the updates.
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


def make_optimizer(learning_rate: float = 1e-3, max_norm: float = 1.0) -> optax.GradientTransformation:
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    clip = optax.clip_by_global_norm(max_norm)  # 1. bound the size of any one step
    adam = optax.adam(learning_rate)  # 2. adaptive per-parameter scaling
    polyak = optax.ema(decay=0.999)  # 3. Polyak averaging for smoother weights
    return optax.chain(clip, adam, polyak)


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
