# BLIND-SET: 36
# EXERCISE: ex5
# WHAT: make_optimizer's second parameter is renamed from max_norm to Keras' clipnorm: positional calls still work, but make_optimizer(max_norm=...) (the contract's keyword) raises TypeError.
# SHOULD-SAY: make_optimizer must accept the keyword max_norm (the contract's signature make_optimizer(learning_rate=1e-3, max_norm=1.0)); keep the name max_norm instead of Keras' clipnorm.
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


def make_optimizer(learning_rate=1e-3, clipnorm=1.0):
    """Clip the global gradient norm to `clipnorm` (Keras' name), then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(clipnorm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
