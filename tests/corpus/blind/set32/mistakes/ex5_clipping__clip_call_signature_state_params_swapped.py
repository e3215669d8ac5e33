# BLIND-SET: 32
# EXERCISE: ex5
# WHAT: clipping is a callable ClipByGlobalNorm object used directly as the update function of an optax.GradientTransformation, but its __call__ is declared (updates, params, state) while optax calls update(updates, state, params). The clipped updates are right, but the "state" it returns is whatever optax passed as params, so the clip slot of the new opt_state holds the params pytree (or None) instead of EmptyState: the optimizer state differs from optax.chain(clip_by_global_norm, adam).
# SHOULD-SAY: The optimizer state is wrong: its clipping entry holds a copy of the params instead of an EmptyState, because ClipByGlobalNorm.__call__ takes (updates, params, state) but optax calls update functions as update(updates, state, params), so the two are swapped. Declare __call__(self, updates, state, params=None), or use optax.clip_by_global_norm.
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


class ClipByGlobalNorm:
    """Global-norm clipping; the object itself is the update function."""

    def __init__(self, max_norm):
        self.max_norm = max_norm

    def init(self, params):
        del params
        return optax.EmptyState()

    def __call__(self, updates, params=None, state=None):
        norm = optax.tree.norm(updates)
        updates = jax.tree.map(
            lambda g: jnp.where(norm < self.max_norm, g, (g / norm) * self.max_norm), updates
        )
        return updates, state

    def transformation(self):
        return optax.GradientTransformation(self.init, self)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(ClipByGlobalNorm(max_norm).transformation(), optax.adam(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
