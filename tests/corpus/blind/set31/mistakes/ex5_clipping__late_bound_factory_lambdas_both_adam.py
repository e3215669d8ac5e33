# BLIND-SET: 31
# EXERCISE: ex5
# WHAT: make_optimizer builds deferred stages in a loop, `stages.append(lambda: make(arg))` over (clip_by_global_norm, max_norm) and (adam, learning_rate); the lambdas read `make` and `arg` when called, after the loop, so both stages are adam(learning_rate). The result is chain(adam, adam): no clipping, and Adam applied to Adam's output.
# SHOULD-SAY: The optimizer is Adam twice with no clipping: the lambdas close over the loop variables `make` and `arg` (late binding), so calling them after the loop builds the last pair twice. Bind them when the lambda is made (`lambda make=make, arg=arg: make(arg)`), or build the transforms directly: `optax.chain(optax.clip_by_global_norm(max_norm), optax.adam(learning_rate))`.
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
    stages = []
    for make, arg in ((optax.clip_by_global_norm, max_norm), (optax.adam, learning_rate)):
        stages.append(lambda: make(arg))
    return optax.chain(*(stage() for stage in stages))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
