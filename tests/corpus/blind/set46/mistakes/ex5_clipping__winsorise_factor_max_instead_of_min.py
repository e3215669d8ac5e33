# BLIND-SET: 46
# EXERCISE: ex5
# WHAT: the hand-written winsorising transform scales gradients by jnp.maximum(1, max_norm / norm) instead of jnp.minimum, so gradients with norm above max_norm pass through unclipped (the spike reaches Adam whole) while gradients below max_norm are scaled up to norm max_norm; Adam's updates differ from clip-then-Adam on every step whose norm is not exactly max_norm.
# SHOULD-SAY: the clipping factor uses max where it needs min: large gradients are never shrunk and small ones are inflated. The factor must be min(1, max_norm / norm) (or use optax.clip_by_global_norm(max_norm)) before Adam.
"""Exercise 5: gradient winsorising (norm clipping) chained before Adam."""

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


def _winsorise_global_norm(max_norm):
    """Pull the gradient vector back to the sphere of radius max_norm."""

    def init_fn(params):
        del params
        return optax.EmptyState()

    def update_fn(updates, state, params=None):
        del params
        leaves = jax.tree.leaves(updates)
        norm = jnp.sqrt(sum(jnp.sum(jnp.square(g)) for g in leaves))
        factor = jnp.maximum(1.0, max_norm / norm)
        return jax.tree.map(lambda g: g * factor, updates), state

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Winsorise the global gradient norm at max_norm, then Adam."""
    return optax.chain(_winsorise_global_norm(max_norm), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
