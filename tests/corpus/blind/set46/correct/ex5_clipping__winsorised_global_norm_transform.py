# BLIND-SET: 46
# EXERCISE: ex5
# WHAT: correct: a hand-written winsorising transform (EmptyState, like optax's) scales the gradient by min(1, max_norm / norm), with the global norm computed as sqrt of the count-weighted per-leaf mean squares (= sqrt of the total sum of squares), chained before optax.adam; the step is the reference's jitted value_and_grad step.
# SHOULD-SAY: nothing to fix: make_optimizer is numerically clip_by_global_norm followed by Adam, and make_train_step meets the contract.
"""Exercise 5: gradient winsorising (global-norm clipping), then Adam."""

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


def _global_norm(tree):
    """sqrt of the total sum of squares, as sum over leaves of count * mean square."""
    total = 0.0
    for g in jax.tree.leaves(tree):
        total = total + g.size * jnp.mean(jnp.square(g))
    return jnp.sqrt(total)


def _winsorise_global_norm(max_norm):
    """Shrink the gradient onto the ball of radius max_norm; leave smaller ones alone."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        norm = _global_norm(updates)
        factor = jnp.minimum(1.0, max_norm / norm)
        return jax.tree.map(lambda g: (g * factor).astype(g.dtype), updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Winsorised global norm, then Adam."""
    return optax.chain(_winsorise_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
