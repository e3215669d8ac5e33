# BLIND-SET: 50
# EXERCISE: ex5
# WHAT: make_optimizer starts with `learning_rate = learning_rate or 1e-3` and `max_norm = max_norm or 1.0` (so that None means "default"). Any nonzero values are used as given, but learning_rate=0.0 silently becomes 1e-3: instead of all-zero updates (params frozen) the optimizer moves the params by Adam steps of size about 1e-3.
# SHOULD-SAY: learning_rate=0.0 is replaced by the default 1e-3 because `learning_rate or 1e-3` treats 0.0 as missing, so updates are not those of clip + Adam(0.0). Test for None explicitly (if learning_rate is None: learning_rate = 1e-3), or simply pass the arguments straight to optax.
"""Exercise 5: gradient clipping in an optax chain."""

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
def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    learning_rate = learning_rate or 1e-3  # None (or nothing) -> the lesson's default
    max_norm = max_norm or 1.0
    return optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
