# BLIND-SET: 33
# EXERCISE: ex5
# WHAT: make_train_step replaces the given optimizer with make_optimizer() unless `type(optimizer) is optax.GradientTransformation`; optax builds GradientTransformationExtraArgs (a subclass), so the check always fails and every step uses lr=1e-3, max_norm=1.0 regardless of the optimizer passed in (right only when that happens to be the default).
# SHOULD-SAY: The exact type() test rejects every real optax optimizer and the fallback silently ignores the argument. Use the optimizer you are given (isinstance(..., optax.GradientTransformation) if you must check) and never substitute a default.
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

    if type(optimizer) is not optax.GradientTransformation:
        # not an optax optimizer: fall back to the exercise's default one
        optimizer = make_optimizer()

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
