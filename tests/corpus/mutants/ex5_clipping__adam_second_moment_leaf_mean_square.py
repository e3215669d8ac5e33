"""A hand-written Adam keeps its second moment as one number per leaf, the mean of the leaf's squared gradient
(jnp.mean(g ** 2)), as an Adafactor-style saving, where Adam keeps g ** 2 element by element. Each element of a
leaf is then divided by the leaf's RMS rather than its own: the first update is -lr * g / rms(g_leaf).
"""

import jax
import jax.numpy as jnp
import optax

EXPECT = {"check": "ex5.chain", "mistake": "ex5.second_moment_per_leaf", "hint": "element by element",
          "max_failing": 1, "also": ["ex5.hyperparams"]}


def forward(params, x):
    """The lesson's MLP: ReLU after every layer but the last."""
    h = jax.nn.relu(x @ params["layer1"]["w"] + params["layer1"]["b"])
    h = jax.nn.relu(h @ params["layer2"]["w"] + params["layer2"]["b"])
    return h @ params["layer3"]["w"] + params["layer3"]["b"]


def loss_fn(params, x, y):
    """Mean softmax cross-entropy over 10 classes."""
    logits = forward(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(y, 10), axis=-1))


def _adam_factored(learning_rate, b1=0.9, b2=0.999, eps=1e-8):
    def init_fn(params):
        return (jnp.zeros([], jnp.int32), jax.tree.map(jnp.zeros_like, params),
                jax.tree.map(lambda p: jnp.zeros([], p.dtype), params))

    def update_fn(updates, state, params=None):
        count, mu, nu = state
        count = count + 1
        mu = jax.tree.map(lambda m, g: b1 * m + (1 - b1) * g, mu, updates)
        nu = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * jnp.mean(g ** 2), nu, updates)  # one per leaf
        c1, c2 = 1 - b1 ** count, 1 - b2 ** count
        steps = jax.tree.map(lambda m, v: -learning_rate * (m / c1) / (jnp.sqrt(v / c2) + eps), mu, nu)
        return steps, (count, mu, nu)

    return optax.GradientTransformation(init_fn, update_fn)


def make_optimizer(learning_rate=1e-3, max_norm=1.0):
    """Clip the global gradient norm to `max_norm`, then apply Adam."""
    return optax.chain(optax.clip_by_global_norm(max_norm), _adam_factored(learning_rate))


def make_train_step(optimizer):
    """A jitted training step that updates params through `optimizer`."""

    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    return step
