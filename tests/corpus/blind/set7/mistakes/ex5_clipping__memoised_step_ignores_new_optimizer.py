# BLIND-SET: mistake
# EXERCISE: ex5
# WHAT: make_train_step caches the first step it builds in a module-level dict 'to avoid recompiling', and returns that cached step on every later call, whatever optimizer it is given. The first optimizer is used correctly; any later make_train_step(other_optimizer) silently trains with the first one.
# SHOULD-SAY: the train-step check fails for the second and later optimizers (new params/state equal the first optimizer's, e.g. different learning_rate/max_norm or plain adam vs clipped); the report should say make_train_step must use the optimizer it is given (no global cache).
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


_STEP_CACHE = {}


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    if "step" in _STEP_CACHE:  # already compiled once: reuse it
        return _STEP_CACHE["step"]

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    _STEP_CACHE["step"] = step
    return step
