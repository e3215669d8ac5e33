# BLIND-SET: 30
# EXERCISE: ex5
# WHAT: the step is a module-level @jax.jit function step(optimizer, params, opt_state, x, y) and make_train_step returns functools.partial(step, optimizer); the optimizer (a NamedTuple of Python functions) becomes a traced jit argument, so every call raises TypeError ("not a valid JAX type"), and the returned partial is not itself a jitted function.
# SHOULD-SAY: jit can only trace arrays; an optax optimizer must be static or closed over. Define step inside make_train_step and jit the closure (as in the lesson), or mark it static with jax.jit(step, static_argnums=0).
"""Exercise 5 (reference): gradient clipping chained before Adam."""

import functools

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


@jax.jit
def _train_step(optimizer, params, opt_state, x, y):
    """One clipped-Adam step; compiled once and shared by every optimizer."""
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""
    # Bind the optimizer instead of closing over it, so the jitted function is
    # defined once at module level rather than re-created per optimizer.
    return functools.partial(_train_step, optimizer)
