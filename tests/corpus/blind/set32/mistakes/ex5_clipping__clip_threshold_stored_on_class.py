# BLIND-SET: 32
# EXERCISE: ex5
# WHAT: clipping is a hand-written ClipByGlobalNorm object whose __init__ stores the threshold on the class (`ClipByGlobalNorm.max_norm = max_norm`) rather than on self, and update() reads it when it runs. Every optimizer made by make_optimizer therefore clips at the max_norm of the most recently made one: an optimizer built with max_norm=1.0 clips at 0.1 once make_optimizer(max_norm=0.1) has been called (results right only while it is the latest).
# SHOULD-SAY: Optimizers do not keep their own max_norm: ClipByGlobalNorm.__init__ assigns the class attribute, shared by every instance, so building a second optimizer changes the clipping threshold of the first. Store it on the instance (self.max_norm = max_norm), or use optax.clip_by_global_norm(max_norm).
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
    """Global-norm clipping as an object with optax-style init/update."""

    max_norm = 1.0

    def __init__(self, max_norm=1.0):
        ClipByGlobalNorm.max_norm = max_norm

    def init(self, params):
        del params
        return optax.EmptyState()

    def update(self, updates, state, params=None):
        del params
        norm = optax.tree.norm(updates)
        limit = self.max_norm
        updates = jax.tree.map(
            lambda g: jnp.where(norm < limit, g, (g / norm) * limit), updates
        )
        return updates, state

    def transformation(self):
        return optax.GradientTransformation(self.init, self.update)


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
